package oracle_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

// Regressions: real runs of the reference engine that the oracle once reported as
// violations although the engine did what the requirement says. Each scenario is in
// testdata/regressions (copied from the finding that showed it); its run must pass the
// oracle, and must still reach the situation it was about (its fragments appear in the
// trace), so the test cannot pass by drifting away from it.
type regression struct {
	file  string
	was   []string // the invariants that fired falsely
	why   string
	frags []string // lines of the trace that show the situation
}

var regressions = []regression{
	{file: "late-answer-accepted-after-its-card-was-made-again", was: []string{"INV-CLIENT-SUBMIT"},
		why:   "CARD-7 an accepted late answer closes its own card only: one a reused call id made while the RPC was in flight stays shown",
		frags: []string{`out call gen=1 rpc=b-r2 userQuestions/answer`, `b@1473 in frame waterfall ev=e2`, `in http rpc=b-r2 {"ok":true,"value":true}`}},
	{file: "wait-no-host-wait-client-delegates", was: []string{"INV-EXPIRY-KEEPS-TURN", "INV-GW-NEXT-ONLY"},
		why:   "WAIT-7 CLAIM-5 a direct blocking ask() carrying wait {timed:true} has no host wait: the client delegates, NO_PROVIDER is right",
		frags: []string{`host in direct d1 ask s1 agent=live`, `"wait":{"callId":"w1","timed":true}`, `send a.1 end stream=a-s1`, `direct-result d1 UserQuestionError/NO_PROVIDER`}},
	{file: "ask-timed-duplicate-wait", was: []string{"INV-WAIT-LIFECYCLE"},
		why:   "ASK-7 the refused duplicate does not replace the live wait: its expiry note is the first wait's",
		frags: []string{`direct-result d2 UserQuestionError/DUPLICATE_WAIT`, `wait s1/w1 expired`, `direct-result d1 {"pending":true,"callId":"w1"}`}},
	{file: "ask-timed-duplicate-wait-answered", was: []string{"INV-WAIT-LIFECYCLE"},
		why:   "ASK-7 the first wait answered by a client after a refused duplicate",
		frags: []string{`DUPLICATE_WAIT`, `wait s1/w1 released claims=0`}},
	{file: "ask-timed-duplicate-wait-replayed-on-connect", was: []string{"INV-FOREGROUND-ENDS-WATERFALL", "INV-ANSWER-FROM-WINNER"},
		why:   "ASK-7 GW-3 the request replayed on connect after a refused duplicate askTimed is the live wait's, not the duplicate's",
		frags: []string{`direct-result d2 UserQuestionError/DUPLICATE_WAIT`, `send a.2 waterfall ev=e1`, `wait s1/d1w claimed`, `direct-result d1 {"answers":[{"id":"q1","selected":["npm"]}]}`}},
	{file: "client-failed-generation-ignores-later-waterfall", was: []string{"INV-CLIENT-CARDS"},
		why:   "GW-7 a failed $events/result fails the client's whole generation: a waterfall arriving before it reconnects is replayed, not shown",
		frags: []string{`in http rpc=a-r2 {"ok":false`, `a@121196 in frame waterfall ev=e3`, `host in connect a`, `send a.2 waterfall ev=e3`}},
	{file: "ask-no-provider-after-replay", was: []string{"INV-GW-NEXT-ONLY"},
		why:   "GW-5 GW-6 a request first delivered as a replay on connect, then passed: NO_PROVIDER is right",
		frags: []string{`host in connect`, `waterfall ev=e1`, `next`, `UserQuestionError/NO_PROVIDER`}},
	{file: "ask-timed-parent-already-aborted", was: []string{"INV-EXPIRY-KEEPS-TURN"},
		why:   "ASK-9 WAIT-9 askTimed with a pre-aborted parent closes its wait with the parent's reason: ASK_ABORTED",
		frags: []string{`"aborted":true`, `wait s1/w2 closed reason=`, `direct-result d1 UserQuestionError/ASK_ABORTED`}},
	{file: "fuzz-29", was: []string{"INV-CLIENT-EXPIRY"},
		why:   "CD-4 an edit on the composer seat while two requests are live (the seat shows the -1 request's card) does not freeze the timed one",
		frags: []string{`"wait":{"callId":"c2"}`, `in user choose q=q1`, `ev=e1 rejected UserQuestionError/ASK_TIMED_OUT`}},
	{file: "fuzz-1338", was: []string{"INV-WAIT-EXPIRES-ON-TIME"},
		why:   "TOOL-3 arguments the tool cannot read (a question without its text) fail the call: no wait, its result waits behind the earlier call",
		frags: []string{`args={"questions":[{"id":"q1"}]}`, `wait s1/c2 created`}},
	{file: "fuzz-1044", was: []string{"INV-WAIT-EXPIRES-ON-TIME", "INV-TOOL-MODE"},
		why:   "CALLER-2 a child's timed call has no wait; TOOL-4 a call with no header takes the host's (timed) path",
		frags: []string{`tool/call turn=1 step=1 call=c3 name=ask_user_question`, `wait s2/c4 created deadline=5169`}},
	{file: "fuzz-1672", was: []string{"INV-GW-REPLAY"},
		why:   "GW-3 a turn cancelled while the only client is away ends its request: nothing to replay",
		frags: []string{`host in cancel-turn s1`, `call=c1 error err=UserQuestionError/ASK_ABORTED`, `send b.2 ready gen=2`}},
	{file: "fuzz-1693", was: []string{"INV-GW-NEXT-ONLY"},
		why:   "GW-6 a legacy request replayed on connect to the only client, which passes: NO_PROVIDER is right",
		frags: []string{`host in connect b`, `send b.1 waterfall ev=e1`, `ev=e1 next`, `call=c3 error err=UserQuestionError/NO_PROVIDER`}},
	{file: "fuzz-1693b", was: []string{"INV-GW-NEXT-ONLY"},
		why:   "GW-6 two legacy requests replayed on connect, one answered and one passed: NO_PROVIDER is right",
		frags: []string{`send b.1 waterfall ev=e2`, `ev=e2 next`, `call=c3 error err=UserQuestionError/NO_PROVIDER`}},
	{file: "fuzz-265", was: []string{"INV-WAIT-LIFECYCLE", "INV-RESTART-PREFIX", "INV-LOG-SEQ"},
		why:   "AGENT-2 a restart at a deadline: the timer fires before the crash, whose durable prefix drops its result",
		frags: []string{`t=2000 host in restart`, `wait s1/c3 expired`, `TOOL_OUTCOME_UNKNOWN`}},
	{file: "fuzz-1372", was: []string{"INV-CALLER-ROOT-ONLY"},
		why:   "CALLER-3 a closed child comes back as a resumed root, which may ask",
		frags: []string{`host in close-session k1`, `wait k1/c2 created`}},
	{file: "fuzz-2866", was: []string{"INV-GW-REPLAY"},
		why:   "GW-5 two requests replayed with no header seen (the legacy tool), then the session closed: nothing to replay",
		frags: []string{`send a.1 waterfall ev=e2`, `host in close-session s1`, `send a.2 ready gen=2`}},
	{file: "fuzz-1072", was: []string{"INV-CLIENT-EXPIRY"},
		why:   "DRAFT-3 an edited card swept with its draft: the reused call id's timed card starts unfrozen",
		frags: []string{`in user type text="x"`, `call=c3 ask_user_question {"questions":[{"id":"q1","question":"Question 1?"}],"timeout":1}`, `ev=e2 rejected UserQuestionError/ASK_TIMED_OUT`}},
	{file: "fuzz-2526", was: []string{"INV-CLIENT-EXPIRY"},
		why:   "CARD-9 a continued card whose reply waits in the inbox is swept with its draft",
		frags: []string{`inbox{next-step=[msg-3(reply:c1)]`, `ev=e3 rejected UserQuestionError/ASK_TIMED_OUT`}},
	{file: "fuzz-6888", was: []string{"INV-LOG-PAIRING"},
		why:   "AGENT-4 a sub-call cut off by the repair of its run_code never settles; the parent's id is reused",
		frags: []string{`tool/ptc-dispatch-start parent=c1 sub=c1:ptc:1`, `call=c1 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN`, `tool-call s1 call=c1 ask_user_question`}},
	{file: "fuzz-14251", was: []string{"INV-CLIENT-EXPIRY"},
		why:   "CD-6 the countdown tick due at the edit's instant fires before the edit",
		frags: []string{`t=6097 a@6097 in user type card=c1`, `t=6097 a@6097 out result gen=1 rpc=a-r2 ev=e1 rejected UserQuestionError/ASK_TIMED_OUT`}},
	{file: "fuzz-17274", was: []string{"INV-CLIENT-EXPIRY"},
		why:   "DRAFT-2 after a reload a stored draft that does not fit the card's questions is dropped with its disposition",
		frags: []string{`in user choose q=q1 label="yes"`, `in reload`, `ev=e2 rejected UserQuestionError/ASK_TIMED_OUT`}},
	{file: "restart-at-deadline-after-the-step-went-on", was: []string{"INV-WAIT-LIFECYCLE", "INV-RESTART-PREFIX"},
		why:   "AGENT-2 AGENT-3 a restart at a deadline: the expiry completes the step, which admits a steer and runs on before the crash; the repair closes what is durable",
		frags: []string{`t=1000 host in restart`, `wait s1/c1 expired`, `claimed next-step`, `step/start turn=1 step=2`, `turn/end turn=1 reason=interrupted`}},
	{file: "disconnect-at-deadline", was: []string{"INV-GW-GENERATION"},
		why:   "GW-3 a disconnect at an unclaimed wait's deadline: the wait expires first and cancels the request on the generation that then drops",
		frags: []string{`t=558 host in disconnect a`, `wait s1/d15w expired`, `t=558 host out send a.1 cancel ev=e5`}},
	{file: "legacy-header-reuses-a-tracked-call-id", was: []string{"INV-LEGACY-UNTRACKED"},
		why:   "PROJ-2 PROJ-3 an untracked call reusing a continued call's id leaves that row alone",
		frags: []string{`host in header s1 tools=[{"name":"ask_user_question","parameters":{"type":"object","properties":{"questions":{"type":"array"}}`, `tool/call turn=2 step=1 call=c1`}},
	{file: "ptc-sub-call-id-reused-without-entering", was: []string{"INV-ANSWER-VALIDATED"},
		why:   "PROJ-7 a sub-call reusing a continued sub-call's id that does not end pending leaves its row (and its questions) alone",
		frags: []string{`sub=c3:ptc:2 name=ask_user_question error err=UserQuestionError/ASK_ABORTED`, `userQuestions/answer {"agentId":"s1","callId":"c3:ptc:2","answer":{"answers":[{"id":"q1","selected":["npm"]}]}}`, `{"ok":true,"value":true}`}},
	{file: "disconnect-at-sleep-end", was: []string{"INV-GW-GENERATION"},
		why:   "GW-5 a disconnect at a sleep's end: the run_code goes on first and its next sub-call's request reaches the generation that then drops",
		frags: []string{`t=7425 host in disconnect a`, `name=sleep ok slept 216 ms`, `t=7425 host out send a.1 waterfall ev=e1`}},
	{file: "reload-prunes-a-frozen-draft", was: []string{"INV-CLIENT-EXPIRY"},
		why:   "DRAFT-3 after a reload a settled call has no card: its stored draft and disposition are pruned, so a reused call id starts unfrozen",
		frags: []string{`b@5512 in user choose card=c3`, `b@8048 in reload`, `ev=e3 rejected UserQuestionError/ASK_TIMED_OUT`}},
	{file: "reload-prunes-the-draft-of-an-open-row", was: []string{"INV-CLIENT-EXPIRY"},
		why:   "DRAFT-3 CARD-8 an open row makes no card (only its request does): after a reload with the request gone, the frozen draft is pruned, so the reused call id counts down (fuzz seed 5288084 of a million-seed campaign)",
		frags: []string{`a@8604 in user skip card=c4`, `a@8604 in reload`, `questions{active=[c2:continued c3:open c4:open]`, `ev=e4 rejected UserQuestionError/ASK_TIMED_OUT`}},
	{file: "clock-set-back-during-a-focus-pause", was: []string{"INV-CLIENT-EXPIRY"},
		why:   "CD-2 CD-10 a pause resumes its remainder from the client's clock as it reads then: a clock set back meanwhile moves the expiry",
		frags: []string{`a@1 in user focus`, `sim fault clock-jump a by=-6878`, `a@-5877 out result gen=1 rpc=a-r1 ev=e1 rejected UserQuestionError/ASK_TIMED_OUT`}},
	{file: "late-failed-steer-releases-the-reservation", was: []string{"INV-LATE-ANSWERABLE"},
		why:   "LATE-5 a steering failure propagates as it is (no domain code): it is not answer() returning false",
		frags: []string{`host in fail-inbox-write s1`, `{"ok":false,"error":{"code":"gateway/internal"`, `agent/inbox/spliced queued next-step`}},
	{file: "cancel-at-sleep-end-aborts-the-next-sub-call", was: []string{"INV-EXPIRY-KEEPS-TURN"},
		why:   "WAIT-9 AGENT-4 a turn cancel at the instant a run_code sleep ends: the timer fires first, the next sub-call's wait starts inside the cancel's Apply and is aborted with its turn, so ASK_ABORTED is right",
		frags: []string{`host in cancel-turn s1`, `tool/ptc-dispatch parent=c1 sub=c1:ptc:1 name=sleep ok`, `wait s1/c1:ptc:2 closed reason=agent: turn aborted (user)`, `sub=c1:ptc:2 name=ask_user_question error err=UserQuestionError/ASK_ABORTED`}},
	{file: "steered-reply-for-any-call", was: []string{"INV-LATE-ONLY-CONTINUED"},
		why:   "NODE-1 a reply the model steers with a recorded source is another producer's input, taken as it is for an unknown or an open call: LATE-1 binds answer() only",
		frags: []string{`host in send s1 next-step`, `+[msg-1 user-question-reply(call=c9,outcome=answered)`, `+[msg-2 user-question-reply(call=c1,outcome=answered) "typed elsewhere"]`, `wait s1/c1 armed at=2010`}},
	{file: "fuzz-4010", was: []string{"INV-CLIENT-CARDS"},
		why:   "CARD-2 GW-7 a failed $events/result fails the generation: its undecided request is aborted, no longer held, so its card may go",
		frags: []string{`a@784 in frame waterfall ev=e3`, `a@822 in http rpc=a-r1 {"ok":false`, `a@822 out cancel gen=1 stream=a-s3`, `host out send a.2 waterfall ev=e3`}},
	{file: "failed-result-aborts-a-second-run-code-sub-call-request", was: []string{"INV-CLIENT-CARDS"},
		why:   "CARD-2 GW-7 a failed $events/result aborts a second run_code call's timed sub-call request with the generation",
		frags: []string{`a@13007 in frame waterfall ev=e4`, `"wait":{"callId":"c9:ptc:1","timed":true}`, `a@14959 in http rpc=a-r2 {"ok":false`, `a@14959 out cancel gen=1 stream=a-s4`}},
	{file: "failed-result-aborts-a-blocking-sub-call-request", was: []string{"INV-CLIENT-CARDS"},
		why:   "CARD-2 GW-7 a failed $events/result aborts a blocking run_code sub-call's request (no claim) with the generation",
		frags: []string{`"wait":{"callId":"c7:ptc:1"}}`, `a@242219 in http rpc=a-r2 {"ok":false`, `a@244181 in frame waterfall ev=e3`}},
	{file: "fuzz-18304", was: []string{"INV-CLIENT-COUNTDOWN"},
		why:   "CD-4 after a link-down an edit naming a call id without its Session goes to the page's one card for it, not to a swept card of another Session whose old claim stream names the same id",
		frags: []string{`a@0 out open gen=1 stream=a-s1 userQuestions/attachWait {"agentId":"f2","callId":"c3"}`, `a@0 out open gen=1 stream=a-s2 userQuestions/attachWait {"agentId":"s1","callId":"c3"}`, `a@1611 in link-down`, `a@1611 in user skip card=c3`}},
	{file: "card-unbound-submitted-card-lingers", was: []string{"INV-CLIENT-COUNTDOWN", "INV-CLIENT-CARDS"},
		why:   "CARD-8 an unbound Session's update sweeps no card: the card answered meanwhile stays, with its draft and its edit's freeze",
		frags: []string{`a@1 in user unbind`, `a@1 in user type text="x"`, `a@1 in frame session s1 events=6..6 questions{active=[] settled=[]}`, `card question:s1:c1 kind=question state=open wait=editing`}},
	{file: "wait-stall-catches-up-a-ptc-chain", was: []string{"INV-WAIT-DEADLINE"},
		why:   "WAIT-1 a run_code ask started by a sleep caught up after a host stall counts its deadline from the start its dispatch-start records",
		frags: []string{`sim fault host-stall by=2442`, `t=3252 host out append s1 #8 t=1208 tool/ptc-dispatch-start parent=c4 sub=c4:ptc:2`, `wait s1/c4:ptc:2 created deadline=2208`}},
	{file: "fuzz-10253", was: []string{"INV-LOG-PAIRING"},
		why:   "AGENT-3 a call written by hand outside any step, read back after a restart, is no call of the step the host runs next",
		frags: []string{`host in append-event k1 tool/call turn=1 step=1 call=h5`, `host in restart`, `host out append k1 #6 t=11643 step/end turn=1 step=1`}},
	{file: "fuzz-15121", was: []string{"INV-LOG-PAIRING"},
		why:   "AGENT-3 a turn/end of another turn written by hand leaves the open turn to the restart's repair",
		frags: []string{`host in append-event s1 turn/end turn=48`, `t=216 host in restart`, `tool/result turn=1 step=1 call=c2 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN`, `host out append s1 #10 t=0 turn/end turn=1 reason=interrupted`}},
	{file: "fuzz-118148", was: []string{"INV-CLIENT-COUNTDOWN"},
		why:   "DRAFT-3 CD-4 after a reload a frozen call's stored draft stays until a mount prunes it: the reused call id's own card mounts first and keeps it, editing",
		frags: []string{`a@1 in link-down`, `a@1 in user choose label="later"`, `a@412 in reload`, `a@413 in frame waterfall ev=e2`, `card question:s1:c2 kind=question state=open wait=editing`}},
	{file: "fuzz-101451", was: []string{"INV-LOG-PAIRING"},
		why:   "AGENT-3 a call written by hand outside the open step, read back after a restart, is settled by the repair like any unresolved call",
		frags: []string{`host in append-event f1 tool/call turn=1 step=1 call=h1`, `tool/result turn=1 step=1 call=h1 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN`, `step/end turn=2 step=1`}},
	{file: "fuzz-36885", was: []string{"INV-LOG-PAIRING"},
		why:   "AGENT-2 AGENT-3 a write window the stall held back flushes first in the restart's Apply: the durable prefix the repair closes includes it",
		frags: []string{`sim fault host-stall by=4600`, `t=1225 host in restart`, `t=1225 host out persisted s1 through=8`, `tool/result turn=1 step=1 call=h4 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN`}},
	{file: "fuzz-362208", was: []string{"INV-CLIENT-COUNTDOWN"},
		why:   "CARD-12 DRAFT-3 CD-4 a teardown on a page with no card yet (just reloaded) removes no card, so the stored draft stays: the next page's card restores it, editing",
		frags: []string{`a@3979 in user type card=c2:ptc:3 q=q3 text="x"`, `a@3979 in reload`, `a@3979 in user teardown`, `a@3979 in frame waterfall ev=e2`, `card question:s1:c2:ptc:3 kind=question state=open wait=editing`}},
	{file: "fuzz-417655", was: []string{"INV-TIMED-RESULT-MAPPING"},
		why:   "WAIT-8 WAIT-9 a run_code ask a host stall caught up, started in a turn cancel's Apply, whose deadline came due before the cancel: it expired first, pending",
		frags: []string{`sim fault host-stall by=2688`, `t=18700 host in cancel-turn s1`, `t=18700 host out append s1 #8 t=17670 tool/ptc-dispatch-start parent=c6 sub=c6:ptc:2`, `wait s1/c6:ptc:2 created deadline=18670`, `sub=c6:ptc:2 name=ask_user_question ok {"pending":true`, `turn/end turn=1 reason=aborted:user`}},
	{file: "fuzz-417655b", was: []string{"INV-TIMED-RESULT-MAPPING", "INV-TIMED-NEEDS-LIVE-AGENT"},
		why:   "WAIT-8 TOOL-6 the same caught-up ask in a session close's Apply: made while its agent was live, expired before the close",
		frags: []string{`sim fault host-stall by=2688`, `t=18700 host in close-session s1`, `t=18700 host out append s1 #8 t=17670 tool/ptc-dispatch-start parent=c6 sub=c6:ptc:2`, `sub=c6:ptc:2 name=ask_user_question ok {"pending":true`}},
	{file: "fuzz-6396", was: []string{"INV-CLIENT-EXPIRY"},
		why:   "CARD-12 teardown removes every card with its draft and disposition",
		frags: []string{`in user teardown`, `in reload`, `ev=e1 rejected UserQuestionError/ASK_TIMED_OUT`}},
	{file: "fuzz-345568", was: []string{"INV-CLIENT-CARDS"},
		why: "CARD-9 CARD-8 a continued card kept by its call's request when its reply was queued stays after a link-down ends that request, until the next update reconciles it",
		frags: []string{`a@4013 in frame session s1 events=17..17 questions{active=[c1:continued] settled=[]} inbox{next-step=[msg-3(reply:c1)]`, `a@9925 in link-down`,
			`a{gen=2 up cards=[card question:s1:c1 kind=question state=continued wait=continued channel=rpc`}},
	{file: "fuzz-471299", was: []string{"INV-CLIENT-CARDS"},
		why: "CARD-4 a card holds the waterfall its last request attached: once that request ends, the late-answer RPC is its channel, although an earlier request of the reused call id still lives on the page",
		frags: []string{`host in event-result a.1 rpc=inject-5 ev=e2 rejected`, `a@1567 in frame item stream=a-s2`, `a@2567 in frame cancel ev=e3`,
			`a@3137 out call gen=1 rpc=a-r1 userQuestions/answer {"agentId":"s2","callId":"c2"`}},
	{file: "fuzz-750190", was: []string{"INV-CLIENT-COUNTDOWN"},
		why: "CARD-8 CD-4 a Session the page shows only through a request's card (no update of it yet) can be unbound: its updates sweep no card, so the card edited after a restart keeps its draft, editing",
		frags: []string{`b@133 in user unbind session=s1`, `b@137 in frame session s1 reset events=0..6`, `b@140 in user choose card=c2 label="no"`, `b@737 in frame session s1 reset events=0..10 questions{active=[] settled=[]}`,
			`card question:s1:c2 kind=question state=open wait=editing`}},
	{file: "fuzz-756789", was: []string{"INV-CLIENT-COUNTDOWN"},
		why: "CARD-8 CD-4 a Session unbound before its first update (its run_code sub-call's card on the page): the update listing neither its card's call nor a request sweeps nothing, so the edited card ends editing",
		frags: []string{`a@63 in user unbind session=s1`, `a@86 in frame session s1 reset events=0..6`, `a@119 in user choose card=c4 label="no"`, `a@1095 in frame cancel ev=e2`,
			`a@1109 in frame session s1 events=10..10 questions{active=[c1:ptc:1:continued]`}},
	{file: "fuzz-608129", was: []string{"INV-GW-CANCEL"},
		why:   "GW-1 timers due at the command's instant fire first: a result naming the request a sleep's end forwards in the same Apply is its holder's, here a next, so the later winner owes that generation no cancel",
		frags: []string{`t=936 host in event-result h.1 rpc=inject-3 ev=e1 next`, `t=936 host out send h.1 waterfall ev=e1`, `t=1936 host in event-result a.1 rpc=a-r1 ev=e1 rejected`}},
	{file: "fuzz-849819", was: []string{"INV-GW-CANCEL"},
		why: "GW-1 ASK-5 the same with a sleep a host stall caught up: the rejection that arrives in the Apply that forwards the timed ask wins it, the other holder is cancelled",
		frags: []string{`sim fault host-stall by=4133`, `t=1502 host in event-result a.1 rpc=inject-10 ev=e5 rejected`, `t=1502 host out send a.1 waterfall ev=e5`, `t=1502 host out send b.1 cancel ev=e5`,
			`sub=c4:ptc:2 name=ask_user_question error err=UserQuestionError/UI_REFUSED`}},
	{file: "fuzz-851903", was: []string{"INV-GW-CANCEL"},
		why: "GW-1 ASK-5 the same for a blocking run_code ask: the rejection wins the request forwarded in its Apply, the other holder is cancelled",
		frags: []string{`sim fault host-stall by=4580`, `t=11259 host in event-result b.1 rpc=inject-9 ev=e5 rejected`, `t=11259 host out send b.1 waterfall ev=e5`, `t=11259 host out send d.1 cancel ev=e5`,
			`sub=c7:ptc:2 name=ask_user_question error err=UserQuestionError/ASK_CANCELLED`}},
	{file: "fuzz-626237", was: []string{"INV-LIVE-NO-LEAK"},
		why: "GW-1 GW-6 timers due before a command fire first: a run_code sleep a host stall held back ends, its next sub-call's request reaches the holding answerer, and then the answerer's pass for it is processed",
		frags: []string{`sim fault host-stall by=2822`, `t=1649 host in event-result h.1 rpc=inject-5 ev=e2 next`, `t=1649 host out append s1 #8 t=1497 tool/ptc-dispatch parent=c1`,
			`t=1649 host out send h.1 waterfall ev=e2`, `pending=[e1 agent=s1 deliveries=c,h e2 agent=s1 deliveries=c]`}},
	{file: "fuzz-626237b", was: []string{"INV-GW-SETTLE-ONCE", "INV-LIVE-NO-LEAK"},
		why: "GW-1 the same pass with the caught-up request's fan-out reaching h before c: the host takes the command after the whole fan-out, so the request is still delivered to c",
		frags: []string{`t=1649 host in event-result h.1 rpc=inject-5 ev=e2 next`, `0047 t=1649 host out send h.1 waterfall ev=e2`, `0048 t=1649 host out send c.1 waterfall ev=e2`,
			`pending=[e1 agent=s1 deliveries=c,h e2 agent=s1 deliveries=c]`}},
	{file: "fuzz-1055410", was: []string{"INV-CLIENT-COUNTDOWN"},
		why: "CARD-9 DRAFT-3 CD-4 a page reloaded while its edited call turned continued with its reply queued makes no card for it, so the settling update closes none: the stored draft stays, and the reused call id's next card restores it, editing",
		frags: []string{`a@3030 in user choose session=f1 q=q2 label="yes"`, `a@4552 in reload`, `a@6187 in frame session f1 reset events=0..15 questions{active=[c2:continued] settled=[]} inbox{next-step=[msg-3(reply:c2)]`,
			`a@6315 in frame session f1 events=16..19 questions{active=[] settled=[c2{q1=skipped q2=skipped}]}`, `a@6889 in frame waterfall ev=e2`,
			`a{gen=2 up cards=[card question:f1:c2 kind=question state=open wait=editing`}},
	{file: "fuzz-1533742", was: []string{"INV-ANSWER-VALIDATED"},
		why: "LATE-3 PROJ-3 AGENT-3 a reused call id whose arguments repeat a question id (the tool refused it, a restart repaired it as unknown, the projection keeps it continued): a batch naming the repeated id once and one other id has no repeat, the right count and every question id, so answer() accepts it",
		frags: []string{`call=c1 name=ask_user_question args={"questions":[{"id":"q1","question":"Question 1?","options":[{"label":"bun"},{"label":"yes"}]},{"id":"q1"`,
			`call=c1 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN`, `userQuestions/answer {"agentId":"s2","callId":"c1","answer":{"answers":[{"id":"q1","selected":[],"custom":"x"},{"id":"q2","selected":[]}]}}`,
			`host out reply a.1 rpc=a-r1 {"ok":true,"value":true}`}},
	{file: "fuzz-2054404", was: []string{"INV-FOREGROUND-ENDS-WATERFALL", "INV-ANSWER-FROM-WINNER", "INV-LIVE-NO-LEAK"},
		why: "GW-5 GW-1 a host stall caught up at a connect: the run_code sub-call's request, forwarded by the caught-up timers in that Apply, is replayed after the older call's, so the first replayed request (e1) is the older legacy call's and the sub-call's (e2) settles it",
		frags: []string{`host in tool-call s1 call=c6 ask_user_question`, `t=2087 host in connect a`, `tool/ptc-dispatch-start parent=c4 sub=c4:ptc:2`,
			`send a.2 waterfall ev=e1 user-questions/request agent=s1 {"questions":[{"id":"q1","question":"Question 1?","options":[{"label":"npm"},{"label":"bun"}]}]}`,
			`host in event-result a.2 rpc=a-r1 ev=e2 result`, `sub=c4:ptc:2 name=ask_user_question ok`}},
	{file: "fuzz-2108773", was: []string{"INV-WAIT-LIFECYCLE", "INV-WAIT-DEADLINE"},
		why: "ASK-7 WAIT-9 a close disposes the agent but not a direct askTimed's wait (its own signal): the resumed Session's new agent has no wait for the call id, so a second askTimed for it is no duplicate; each wait expires at its own deadline",
		frags: []string{`host in direct d1 askTimed s1 agent=live`, `host in close-session s1`, `host in direct d2 askTimed s1 agent=live`,
			`wait s1/d2w created deadline=128448`, `t=128447 host out wait s1/d2w expired`, `direct-result d1 {"pending":true,"callId":"d2w"}`,
			`t=128448 host out wait s1/d2w expired`, `direct-result d2 {"pending":true,"callId":"d2w"}`}},
	{file: "fuzz-2366057", was: []string{"INV-WAIT-LIFECYCLE"},
		why:   "ASK-7 GW-3 a close releases the agent's gateway context: a direct askTimed whose request is still pending fails with it, and its wait's close, in the close's Apply, is the orphaned wait's",
		frags: []string{`direct-result d2 UserQuestionError/DUPLICATE_WAIT`, `host in close-session s1`, `host out wait s1/d1w closed reason=completed`, `direct-result d1 Error: "gateway: Remote event Agent Context was released"`}},
}

// runRegression runs a scenario of testdata/regressions against the reference engine and
// returns its trace and the oracle options simrun uses for it.
func runRegression(t testing.TB, file string) (*trace.Trace, oracle.Options) {
	t.Helper()
	path := filepath.Join("testdata", "regressions", file+".yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.Decode(path, data)
	if err != nil {
		t.Fatal(err)
	}
	var r harness.Result
	harness.RunScenario(&r, s, harness.Options{})
	if r.Invalid != nil || r.Trace == nil {
		t.Fatalf("%s does not run: %v %v", file, r.Invalid, r.Failures)
	}
	opts := oracle.Options{DefaultTimeoutMs: 120_000}
	if s.Timeout != nil {
		opts.DefaultTimeoutMs = *s.Timeout * 1000
		if *s.Timeout < 0 {
			opts.DefaultTimeoutMs = -1
		}
	}
	return r.Trace, opts
}

func TestRegressionsPass(t *testing.T) {
	for _, c := range regressions {
		t.Run(c.file, func(t *testing.T) {
			tr, opts := runRegression(t, c.file)
			text := tr.Text()
			for _, f := range c.frags {
				if !strings.Contains(text, f) {
					t.Fatalf("the run no longer shows %q (%s):\n%s", f, c.why, text)
				}
			}
			v := oracle.Check(tr, opts)
			for _, inv := range c.was {
				if v.Has(inv) {
					t.Errorf("%s fires again (%s): %s", inv, c.why, v.Of(inv))
				}
			}
			if !v.OK() {
				t.Fatalf("%s: %s\n%s", c.why, v, text)
			}
		})
	}
}

// Next to each regression, the violation it must still catch: the same real trace with
// one rule broken.
func TestRegressionsStillCatch(t *testing.T) {
	cases := []struct {
		file, inv, name string
		break_          func(m *mut) int
	}{
		{"wait-no-host-wait-client-delegates", "INV-WAIT-CLAIM-FRAME", "WAIT-7 a claim frame although no host wait exists", func(m *mut) int {
			i := m.find(0, "host out send a.1 end stream=a-s1")
			frameAt(m, i, func(sf *wire.SendFrame) {
				sf.Frame = wire.StreamItem{StreamID: "a-s1", Value: []byte(`{"remainingMs":1000}`)}
			})
			return i
		}},
		{"ask-timed-duplicate-wait", "INV-WAIT-LIFECYCLE", "ASK-7 a second wait created while the first is live", func(m *mut) int {
			i := m.find(0, "direct-result d2 UserQuestionError/DUPLICATE_WAIT")
			m.set(i, wire.WaitNote{Session: "s1", CallID: "w1", Kind: wire.WaitCreated, Deadline: 32000})
			return i
		}},
		{"ask-timed-duplicate-wait", "INV-WAIT-DEADLINE", "WAIT-1 the live wait expires at the refused duplicate's deadline", func(m *mut) int {
			i := m.find(0, "t=6000 host in tick")
			for j := i; j < len(m.tr.Records); j++ {
				m.tr.Records[j].Time = 5000
			}
			return m.find(0, "wait s1/w1 expired")
		}},
		{"ask-no-provider-after-replay", "INV-GW-NEXT-ONLY", "GW-6 NO_PROVIDER before the replayed request was passed", func(m *mut) int {
			i := m.find(0, "UserQuestionError/NO_PROVIDER")
			k := m.find(0, "host in connect")
			r := m.tr.Records[i]
			m.del(i)
			r.Time = m.tr.Records[k].Time
			m.insert(k+1, r)
			return k + 1
		}},
		{"ask-timed-parent-already-aborted", "INV-TIMED-RESULT-MAPPING", "ASK-9 a pre-aborted parent yields pending", func(m *mut) int {
			i := m.find(0, "direct-result d1 UserQuestionError/ASK_ABORTED")
			m.set(i, wire.DirectResult{ID: "d1", Value: []byte(`{"pending":true,"callId":"w2"}`)})
			return i
		}},
		{"fuzz-29", "INV-CLIENT-EXPIRY", "CD-4 an edit naming the timed card freezes it", func(m *mut) int {
			i := m.find(0, "in user choose q=q1")
			u := m.tr.Records[i].Payload.(wire.User)
			u.Action.Card = "c1"
			m.set(i, u)
			return m.find(0, "ev=e1 rejected UserQuestionError/ASK_TIMED_OUT")
		}},
		{"fuzz-1338", "INV-TOOL-MODE", "TOOL-3 unreadable arguments get a timed wait", func(m *mut) int {
			i := m.find(0, "tool/call turn=1 step=1 call=c2")
			apply(m, i, func(a wire.Appended) wire.Appended {
				d := a.Event.Data.(session.ToolCall)
				d.Arguments = `{"questions":[{"id":"q1"}]}`
				a.Event.Data = d
				return a
			})
			return m.find(0, "wait s1/c2 created")
		}},
		{"fuzz-1044", "INV-CALLER-ROOT-ONLY", "CALLER-2 a child's timed call gets a wait", func(m *mut) int {
			i := m.find(0, "host out persisted k1 through=8")
			m.set(i, wire.WaitNote{Session: "k1", CallID: "c3", Kind: wire.WaitCreated, Deadline: 4054})
			return i
		}},
		{"fuzz-1672", "INV-GW-SETTLE-ONCE", "GW-3 a request aborted with its turn is replayed on reconnect", func(m *mut) int {
			i := m.find(0, "host out send b.2 ready gen=2")
			r := m.tr.Records[i]
			w := m.tr.Records[m.find(0, "host out send b.1 waterfall ev=e1")]
			w.Time = r.Time
			sf := w.Payload.(wire.SendFrame)
			sf.Gen = 2
			w.Payload = sf
			m.insert(i+1, w)
			return i + 1
		}},
		{"fuzz-265", "INV-RESTART-PREFIX", "AGENT-3 the restarted host keeps the result the crash lost", func(m *mut) int {
			i := m.find(0, "error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN")
			m.del(i)
			return m.find(0, "host out append s1 #7 t=0 step/end")
		}},
		{"restart-at-deadline-after-the-step-went-on", "INV-RESTART-PREFIX", "AGENT-3 the repair leaves the turn open", func(m *mut) int {
			m.del(m.find(0, "turn/end turn=1 reason=interrupted"))
			return -1
		}},
		{"disconnect-at-deadline", "INV-GW-GENERATION", "GW-7 a frame after the disconnect that no timer sends", func(m *mut) int {
			i := m.find(0, "host out direct-result d3")
			r := m.tr.Records[i]
			r.Payload = wire.SendFrame{Client: "a", Gen: 1, Frame: wire.SessionUpdate{Session: "s1"}}
			m.insert(i+1, r)
			return i + 1
		}},
		{"disconnect-at-deadline", "INV-GW-GENERATION", "GW-7 a cancel after a disconnect with no wait due", func(m *mut) int {
			i := m.find(0, "t=558 host in disconnect a")
			for j := i; j < len(m.tr.Records); j++ {
				if m.tr.Records[j].Time == 558 {
					m.tr.Records[j].Time = 557 // the wait is not due yet
				}
			}
			return m.find(0, "t=557 host out send a.1 cancel ev=e5")
		}},
		{"fuzz-4010", "INV-CLIENT-CARDS", "CARD-2 a request held through a result that succeeded keeps its card", func(m *mut) int {
			i := m.find(0, `a@822 in http rpc=a-r1 {"ok":false`)
			m.set(i, wire.FromHTTP{RPCID: "a-r1", Envelope: wire.Envelope{OK: true}})
			return m.find(0, "sim probe expect@1.107s")
		}},
		{"fuzz-18304", "INV-CLIENT-COUNTDOWN", "CD-4 an edit named for the other Session's call does not freeze this card", func(m *mut) int {
			i := m.find(0, "a@1611 in user skip card=c3")
			u := m.tr.Records[i].Payload.(wire.User)
			u.Action.Session = "f2"
			m.set(i, u)
			return m.find(0, "sim probe expect@7.194s")
		}},
		{"card-unbound-submitted-card-lingers", "INV-CLIENT-COUNTDOWN", "CARD-8 a bound Session's update sweeps the answered card with its freeze", func(m *mut) int {
			m.del(m.find(0, "a@1 in user unbind"))
			return m.find(0, "sim probe expect@75ms")
		}},
		{"wait-stall-catches-up-a-ptc-chain", "INV-WAIT-DEADLINE", "WAIT-1 a deadline earlier than the sub-call's recorded start", func(m *mut) int {
			apply(m, m.find(0, "tool/ptc-dispatch-start parent=c4 sub=c4:ptc:2"), func(a wire.Appended) wire.Appended {
				a.Event.Time = 1500 // the host says it started the ask later than its deadline allows
				return a
			})
			return m.find(0, "wait s1/c4:ptc:2 created deadline=2208")
		}},
		{"fuzz-15121", "INV-RESTART-PREFIX", "AGENT-3 the repair skips the turn another turn's end seems to close", func(m *mut) int {
			for _, f := range []string{"turn/end turn=1 reason=interrupted", "step/end turn=1 step=1", "call=c2 error err=ToolOutcomeUnknownError/TOOL_OUTCOME_UNKNOWN"} {
				m.del(m.find(0, f))
			}
			return m.find(0, "agent/inbox/spliced queued next-step") // the first event the restarted host appends
		}},
		{"fuzz-118148", "INV-CLIENT-COUNTDOWN", "CD-5 a card never edited on this client shows editing", func(m *mut) int {
			m.del(m.find(0, `a@1 in user choose label="later"`))
			return m.find(0, "sim probe expect@8.586s")
		}},
		{"fuzz-362208", "INV-CLIENT-COUNTDOWN", "CARD-12 a teardown while the card is on the page clears its draft and disposition", func(m *mut) int {
			m.del(m.find(0, "sim fault reload a")) // the first reload goes: the page still holds the card at the teardown
			m.del(m.find(0, "a@3979 in reload"))
			m.del(m.find(0, "a@3979 out dial"))
			return m.find(0, "sim probe expect@4.862s")
		}},
		{"fuzz-417655", "INV-TIMED-RESULT-MAPPING", "WAIT-9 a caught-up ask whose deadline is after the turn cancel got pending, not ASK_ABORTED", func(m *mut) int {
			from, to := m.find(0, "t=18700 host in cancel-turn s1"), m.find(0, "turn/end turn=1 reason=aborted:user")
			for j := from; j <= to; j++ {
				m.tr.Records[j].Time = 18650 // the cancel comes before the ask's deadline (18670)
			}
			return m.find(0, "sub=c6:ptc:2 name=ask_user_question ok")
		}},
		{"fuzz-417655b", "INV-TIMED-RESULT-MAPPING", "WAIT-9 a caught-up ask whose deadline is after the session close got pending, not ASK_ABORTED", func(m *mut) int {
			from, to := m.find(0, "t=18700 host in close-session s1"), m.find(0, "turn/end turn=1 reason=aborted")
			for j := from; j <= to; j++ {
				m.tr.Records[j].Time = 18650 // the close comes before the ask's deadline (18670)
			}
			return m.find(0, "sub=c6:ptc:2 name=ask_user_question ok")
		}},
		{"fuzz-345568", "INV-CLIENT-CARDS", "CARD-9 a continued card listed with its reply queued although no request of it was live when that update came", func(m *mut) int {
			m.del(m.find(0, "a@3427 in frame waterfall ev=e2"))
			return m.find(0, "sim probe expect@10.834s")
		}},
		{"fuzz-471299", "INV-CLIENT-CARDS", "CARD-4 a late-answer call while the card still holds the earlier request's waterfall (the later request never attached its own)", func(m *mut) int {
			m.del(m.find(0, "a@1567 in frame item stream=a-s2"))
			return m.find(0, "a@3137 out call gen=1 rpc=a-r1 userQuestions/answer")
		}},
		{"fuzz-750190", "INV-CLIENT-COUNTDOWN", "CARD-8 CD-4 the same page with the Session still bound: the reconnect's update sweeps the edited card, which may not stay editing", func(m *mut) int {
			m.del(m.find(0, "b@133 in user unbind session=s1"))
			return m.find(0, "sim probe expect@11.548s")
		}},
		{"fuzz-1533742", "INV-ANSWER-VALIDATED", "LATE-3 the same call answered by a batch that repeats q1: accepted, it names an id twice", func(m *mut) int {
			i := m.find(0, "host in call a.1 rpc=a-r1 userQuestions/answer")
			c := m.tr.Records[i].Payload.(wire.Call)
			c.Args = []byte(`{"agentId":"s2","callId":"c1","answer":{"answers":[{"id":"q1","selected":[],"custom":"x"},{"id":"q1","selected":[]}]}}`)
			m.set(i, c)
			return m.find(0, "host out reply a.1 rpc=a-r1")
		}},
		{"fuzz-2054404", "INV-ANSWER-FROM-WINNER", "GW-5 the same result answering the older call's request e1: the sub-call's answer comes from another call's request", func(m *mut) int {
			i := m.find(0, "host in event-result a.2 rpc=a-r1 ev=e2")
			r := m.tr.Records[i].Payload.(wire.EventResult)
			r.EventID = "e1"
			m.set(i, r)
			return m.find(0, "sub=c4:ptc:2 name=ask_user_question ok")
		}},
		{"fuzz-2108773", "INV-WAIT-LIFECYCLE", "ASK-7 the same second askTimed with no close between: the same agent's wait for the call is live, so a second wait is a duplicate", func(m *mut) int {
			m.del(m.find(0, "host in close-session s1"))
			return m.find(0, "host out wait s1/d2w created deadline=128448")
		}},
		{"fuzz-2366057", "INV-WAIT-LIFECYCLE", "WAIT-10 the orphaned wait closed twice: the second close is for no live wait", func(m *mut) int {
			i := m.find(0, "host out wait s1/d1w closed reason=completed")
			m.insert(i+1, m.tr.Records[i])
			m.renumber()
			return i + 1
		}},
		{"fuzz-756789", "INV-CLIENT-COUNTDOWN", "CARD-8 CD-4 the same page with the Session still bound: the update after its call's result sweeps the edited card, which may not stay editing", func(m *mut) int {
			m.del(m.find(0, "a@63 in user unbind session=s1"))
			return -1
		}},
		{"fuzz-1055410", "INV-CLIENT-COUNTDOWN", "CARD-9 DRAFT-3 the same reconnect with the reply not queued: the continued row makes the card, the settling update closes it with its draft, so the next card may not show editing", func(m *mut) int {
			noQueue := func(u *wire.SessionUpdate) { u.Inbox.NextStep = nil }
			update(m, m.find(0, "host out send a.2 session f1 reset events=0..15"), noQueue)
			i := m.find(0, "a@6187 in frame session f1 reset events=0..15")
			fh := m.tr.Records[i].Payload.(wire.FromHost)
			u := fh.Frame.(wire.SessionUpdate)
			noQueue(&u)
			fh.Frame = u
			m.set(i, fh)
			return m.find(0, "sim probe expect@124.102s")
		}},
		{"fuzz-608129", "INV-GW-CANCEL", "GW-1 a cancel to the generation that passed with next on the request forwarded in its Apply", func(m *mut) int {
			i := m.find(0, "t=1936 host out send a.1 end stream=a-s1")
			r := m.tr.Records[i]
			r.Payload = wire.SendFrame{Client: "h", Gen: 1, Frame: wire.Cancel{EventID: "e1"}}
			m.insert(i, r)
			return i
		}},
		{"fuzz-849819", "INV-GW-CANCEL", "GW-1 a cancel to the winner of the request forwarded in its Apply", func(m *mut) int {
			i := m.find(0, "t=1502 host out send b.1 cancel ev=e5")
			frameAt(m, i, func(sf *wire.SendFrame) { sf.Client = "a" })
			return i
		}},
		{"fuzz-851903", "INV-GW-CANCEL", "GW-1 the other holder of the request forwarded in the winner's Apply gets no cancel", func(m *mut) int {
			m.del(m.find(0, "t=11259 host out send d.1 cancel ev=e5"))
			return m.find(0, "t=11259 host in event-result b.1 rpc=inject-9 ev=e5")
		}},
		{"fuzz-626237", "INV-LIVE-NO-LEAK", "GW-1 the host kept the delivery its holder passed after the stall's timers forwarded it", func(m *mut) int {
			h := m.tr.Final.Host
			h.Pending = append([]wire.PendingEvent(nil), h.Pending...)
			for i, p := range h.Pending {
				if p.EventID == "e2" {
					h.Pending[i].Deliveries = []string{"c", "h"}
				}
			}
			m.tr.Final.Host = h
			return -1
		}},
		{"fuzz-626237", "INV-LIVE-NO-LEAK", "GW-1 a pass the host took for a request no timer due before it forwarded", func(m *mut) int {
			// the sleep as written ends after the pass: nothing is due at the command, so
			// the request was forwarded after it and the host took a result it could not know
			apply(m, m.find(0, "tool/ptc-dispatch-start parent=c1 sub=c1:ptc:1 name=sleep"), func(a wire.Appended) wire.Appended {
				d := a.Event.Data.(session.PTCDispatchStart)
				d.Arguments = `{"ms":1800}`
				a.Event.Data = d
				return a
			})
			return -1
		}},
		{"fuzz-626237b", "INV-LIVE-NO-LEAK", "GW-1 the host dropped the caught-up request's other delivery with the holder's pass", func(m *mut) int {
			h := m.tr.Final.Host
			h.Pending = append([]wire.PendingEvent(nil), h.Pending...)
			for i, p := range h.Pending {
				if p.EventID == "e2" {
					h.Pending[i].Deliveries = nil
				}
			}
			m.tr.Final.Host = h
			return -1
		}},
		{"disconnect-at-sleep-end", "INV-GW-GENERATION", "GW-7 a request to the dropped generation with no timer due", func(m *mut) int {
			i := m.find(0, "t=7425 host in disconnect a")
			w := m.tr.Records[m.find(0, "t=7425 host out send a.1 waterfall ev=e1")]
			w.Time = 7424
			r := m.tr.Records[i]
			r.Time = 7424 // the sleep ends at 7425
			m.insert(i, w)
			m.insert(i, r)
			return i + 1
		}},
	}
	for _, c := range cases {
		t.Run(c.name+" ("+c.inv+")", func(t *testing.T) {
			tr, opts := runRegression(t, c.file)
			if v := oracle.Check(tr, opts); !v.OK() {
				t.Fatalf("the base run does not pass: %s", v)
			}
			m := mutate(t, tr)
			want := c.break_(m)
			v := oracle.Check(m.tr, opts)
			b := v.Of(c.inv)
			if b == nil {
				t.Fatalf("%s did not fire: %s\n%s", c.inv, v, m.tr.Text())
			}
			if want < 0 && b.Record != oracle.FinalRecord {
				t.Fatalf("%s fired at %d, want the final state:\n%s", c.inv, b.Record, v)
			}
			if want >= 0 && b.Record != m.tr.Records[want].Seq {
				t.Fatalf("%s fired at %d, want %d:\n%s", c.inv, b.Record, m.tr.Records[want].Seq, v)
			}
		})
	}
}
