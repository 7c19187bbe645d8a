#!/usr/bin/env python3
# Writes the multi-client matrix of scenarios/library (multi2-*, multi3-*): every order of
# answer / pass / disconnect for two clients (each before or after the deadline) and for
# three, with the outcome each scenario expects computed from the rules, not from a run:
#   - every client focuses at 1s, so each holds a claim and the host timer is stopped (WAIT-2);
#   - the first answer that reaches the host while its client still holds the delivery wins
#     (GW-1), the client keeping its claim until then (CLAIM-2);
#   - a pass releases that client's claim and withdraws only it (CLAIM-4, GW-6);
#   - a disconnect releases the claim but is not a pass (GW-6, GW-7);
#   - once no claim is left the timer runs to the original deadline, or expires at once if it
#     has passed (WAIT-5);
#   - actions after the question settled are refused (their cards are gone).
# Run it from anywhere: python3 scenarios/tools/matrix.py, then simrun run --update.
import itertools, os
LIB=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'library')
DEADLINE=5000
def fmt(ms):
    if ms%1000==0: return f"{ms//1000}s"
    s=f"{ms/1000:.3f}".rstrip('0').rstrip('.'); return s+"s"
def outcome(events, clients):
    # events: list of (t, client, action); all clients focused (claimed) from 1s.
    claims=set(clients); deliveries=set(clients); settled=None; lost_at=None
    for t,c,a in sorted(events, key=lambda e:(e[0], clients.index(e[1]))):
        if settled: break
        if not claims and max(DEADLINE, lost_at) <= t:
            settled=('pending', max(DEADLINE, lost_at)); break
        if a=='answer':
            if c in deliveries and c in claims:
                settled=('answer', t+10, c); break
        elif a=='pass':
            claims.discard(c); deliveries.discard(c)
            if not claims: lost_at=t+10
        elif a=='disconnect':
            claims.discard(c)
            if not claims: lost_at=t
    if not settled:
        assert not claims
        settled=('pending', max(DEADLINE, lost_at))
    return settled
labels={'a':'npm','b':'bun','c':'pnpm'}
def steps_for(c,a,t,gone=False):
    T=fmt(t)
    r1=", refused: no card is in the composer seat" if gone else ""
    r2=", refused: no card c1" if gone else ""
    if a=='answer': return [f"  - {{at: {T}, {c}: {{choose: {labels[c]}}}{r1}}}", f"  - {{at: {T}, {c}: submit{r1}}}"]
    if a=='pass': return [f"  - {{at: {T}, {c}: {{delegate: c1}}{r2}}}"]
    return [f"  - {{at: {T}, net: {{disconnect: {c}}}}}"]
def describe(res):
    if res[0]=='answer': return f"The first answer to reach the host settles the waterfall once, at {fmt(res[1])}."
    if res[1]==DEADLINE: return "Once no claim is left the host timer runs to the original deadline and the question goes pending at 5s."
    return f"The last claim goes after the deadline, so the wait expires at once, at {fmt(res[1])}, and the question goes pending."
def when(t): return 'before' if t<DEADLINE else 'after'
verbs={'answer':'answers','pass':'passes','disconnect':'disconnects'}
def write(name, summary, covers, clients, events):
    res=outcome(events, clients)
    summary=summary+" "+describe(res)
    lines=["# yaml-language-server: $schema=../schema.json", f"name: {name}", f"summary: {summary}",
           f"covers: [{', '.join(covers)}]", "mode: timed", "timeout: 5", "clients:"]
    for c in clients: lines.append(f"  {c}: {{latency: 10ms}}")
    lines+=["steps:","  - {at: 0s, model: {prompt: Set up the project}}","  - {at: 0s, model: header}",
            "  - {at: 0s, model: {call: c1, ask: [{id: pkg, question: Which package manager, options: [npm, bun, pnpm]}]}}"]
    for c in clients: lines.append(f"  - {{at: 1s, {c}: focus}}")
    for t,c,a in sorted(events, key=lambda e:(e[0], clients.index(e[1]))):
        lines+=steps_for(c,a,t, res[0]=='answer' and t > res[1]+50)
    lines+=["expect:", f"  - {{at: 2s, host-wait: c1, claims: {len(clients)}, timer: none, deadline: 5s}}"]
    if res[0]=='answer':
        lines.append(f"  - {{at: end, tool-result: c1, answers: {{pkg: {labels[res[2]]}}}, time: {fmt(res[1])}}}")
        lines.append(f"  - {{at: end, record: \"wait s1/c1 expired\", count: 0}}")
        lines.append(f"  - {{at: end, view: \"active=[] settled=[c1{{pkg=[{labels[res[2]]}]}}]\"}}")
    else:
        lines.append(f"  - {{at: end, tool-result: c1, pending: true, time: {fmt(res[1])}}}")
        lines.append(f"  - {{at: end, record: \"wait s1/c1 expired\", time: {fmt(res[1])}}}")
        lines.append("  - {at: end, view: \"active=[c1:continued] settled=[]\"}")
    lines.append("  - {at: end, event: \"tool/result\", count: 1}")
    lines.append("  - {at: end, host-wait: c1, none: true}")
    open(os.path.join(LIB, name+'.yaml'),'w').write("\n".join(lines)+"\n")
    return res

acts=['answer','pass','disconnect']
n=0
for aa,ab in itertools.product(acts,acts):
    for ta,tb in itertools.product([3000,7000],[4000,8000]):
        name=f"multi2-a-{aa}-{when(ta)}-b-{ab}-{when(tb)}"
        summ=f"Two focused clients hold claims; a {verbs[aa]} {when(ta)} the deadline and b {verbs[ab]} {when(tb)} it."
        cov=['GW-1','GW-6','WAIT-2','WAIT-5','CLAIM-2']
        if 'pass' in (aa,ab): cov.append('CLAIM-4')
        if 'disconnect' in (aa,ab): cov.append('GW-7')
        write(name, summ, cov, ['a','b'], [(ta,'a',aa),(tb,'b',ab)])
        n+=1
for perm in itertools.permutations(acts):
    for times,tag in (([3000,3500,4000],'before'),([6000,7000,8000],'after'),([4000,6000,8000],'around')):
        evs=[(times[i],c,perm[i]) for i,c in enumerate(['a','b','c'])]
        name="multi3-"+"-".join(f"{c}-{perm[i]}" for i,c in enumerate('abc'))+"-"+tag
        summ=f"Three focused clients; in turn a {verbs[perm[0]]}, b {verbs[perm[1]]} and c {verbs[perm[2]]}, "+{'before':'all before the deadline','after':'all after the deadline','around':'one before the deadline and two after'}[tag]+"."
        write(name, summ, ['GW-1','GW-6','WAIT-2','WAIT-5','CLAIM-2','CLAIM-4','GW-7'], ['a','b','c'], evs)
        n+=1
# both clients gone before the deadline, answer after it by a third that never claimed: covered by the above.
print(n)
