#!/usr/bin/env python3
"""Compare arena -jsonout files of matches played on the same openings in the same order.

usage: match_compare.py NEW.json NEW_NAME [OLD.json OLD_NAME]...
Prints W-D-L of NEW_NAME by side, the pentanomial, endings, faults, and per
old run: its score on the same games, the games won by both, by one only, and a
two-sided sign test on the games only one run won."""
import json, sys, math
def load(p, name):
    d=json.load(open(p)); r={}
    for g in d['games']:
        res=g['result']
        if res=='1/2-1/2': s=0.5
        elif (res=='1-0')==(g['first']==name): s=1.0
        else: s=0.0
        r[g['game']]=(s,g['first']==name,g['reason'],g['plies'])
    return d,r
new,rn=load(sys.argv[1],sys.argv[2])
W=sum(1 for v in rn.values() if v[0]==1); L=sum(1 for v in rn.values() if v[0]==0); D=len(rn)-W-L
print('W-D-L',W,D,L,'n',len(rn))
for side,lab in ((True,'sente'),(False,'gote')):
    vs=[v for v in rn.values() if v[1]==side]
    print(lab, sum(v[0]==1 for v in vs), sum(v[0]==0.5 for v in vs), sum(v[0]==0 for v in vs))
pent=[0]*5
for k in range(1,len(rn)+1,2):
    if k+1 in rn: pent[int((rn[k][0]+rn[k+1][0])*2)]+=1
print('pentanomial',pent)
reasons={}
for v in rn.values(): reasons[v[2]]=reasons.get(v[2],0)+1
print(reasons); print('faults',new.get('faults'))
for p,nm in zip(sys.argv[3::2],sys.argv[4::2]):
    _,ro=load(p,nm)
    both=sum(1 for k in rn if k in ro and rn[k][0]==1 and ro[k][0]==1)
    onlyn=sum(1 for k in rn if k in ro and rn[k][0]==1 and ro[k][0]<1)
    onlyo=sum(1 for k in rn if k in ro and rn[k][0]<1 and ro[k][0]==1)
    so=sum(ro[k][0] for k in rn if k in ro)
    n=onlyn+onlyo
    # two-sided sign test
    from math import comb
    m=min(onlyn,onlyo); p2=min(1,2*sum(comb(n,i) for i in range(m+1))/2**n) if n else 1
    print(nm,'score on same openings',so,'both',both,'only new',onlyn,'only old',onlyo,'sign p',round(p2,4))
