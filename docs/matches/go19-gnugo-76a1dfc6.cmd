cd "$(dirname "$0")/../.."
exec target/release/tengen-arena -variant go -boardsize 19 -komi 7.5 \
  -engine cmd=/usr/games/gnugo arg=--mode arg=gtp arg=--level arg=10 arg=--chinese-rules \
          arg=--capture-all-dead arg=--positional-superko name=gnugo-3.8-l10 \
  -engine cmd=matches/tengen-76a1dfc6 name=tengen-76a1dfc6 "initstr=tengen-threads 1" \
  -each proto=gtp st=2 timemargin=500 -games 2 -rounds 50 -openings plies=2 -srand 41 -repeat \
  -concurrency 2 -recover -resume -pgnout docs/matches/go19-gnugo-76a1dfc6.sgf -jsonout docs/matches/go19-gnugo-76a1dfc6.json
