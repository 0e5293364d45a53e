# How each gomoku match game ended, from the arena JSON: our wins and losses
# by five, on time or by a protocol fault (the engine not named rapfi*/pela*
# is ours).  python3 docs/matches/gomoku-breakdown.py docs/matches/gomoku-rapfi-*.json
import json,sys
for f in sys.argv[1:]:
    d=json.load(open(f)); g=d['games']
    ours=None
    wf=wt=wp=lf=lt=lp=dr=0
    for x in g:
        names=[x['first'],x['second']]
        us=[n for n in names if not n.startswith(('rapfi','pela'))][0]
        res=x['result']
        if res not in ('1-0','0-1'): dr+=1; continue
        win = x['first'] if res=='1-0' else x['second']
        r=x['reason']
        kind = 'f' if 'five' in r else ('t' if 'time' in r else 'p')
        if win==us:
            if kind=='f': wf+=1
            elif kind=='t': wt+=1
            else: wp+=1
        else:
            if kind=='f': lf+=1
            elif kind=='t': lt+=1
            else: lp+=1
    print(f, f"wins: five {wf}, opp time {wt}, opp protocol {wp}; losses: five {lf}, time {lt}, protocol {lp}; draws {dr}")
