cd /work/main
exec target/release/tengen-arena -variant go -boardsize 19 -komi 7.5 \
  -engine cmd=matches/tengen-8e8fb66a name=tengen-8e8fb66a "initstr=tengen-threads 1" \
  -engine cmd=tools/go-opponents/bin/pachi arg=-D arg=-t arg==5000 arg=threads=1 name=pachi-12.90-5k \
  -each proto=gtp st=2 timemargin=2500 -games 2 -rounds 25 -openings plies=2 -srand 43 -repeat \
  -concurrency 2 -recover -resume -pgnout docs/matches/go19-pachi5k-8e8fb66a.sgf -jsonout docs/matches/go19-pachi5k-8e8fb66a.json
