package wire

import (
	"encoding/json"

	"github.com/twosettle/twosettle/engine/session"
)

// The codec's samples: one value of every command, effect, frame and event kind (some
// kinds more than one, for their optional keys and payload fallbacks) with its exact JSON
// line. The table tests, the fuzz seeds and the schema test all read these.

type commandSample struct {
	name string
	c    Command
	json string
}

type effectSample struct {
	name string
	e    Effect
	json string
}

type eventSample struct {
	name string
	e    session.Event
	json string
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

var sampleQuestions = []Question{
	{ID: "pkg", Question: "Which package manager?", Header: ptr("Setup"), Detail: ptr("for the repo"),
		Options: []Option{{Label: "npm", Description: ptr("the default")}, {Label: "bun"}}, MultiSelect: ptr(false)},
	{ID: "plan", Question: "Approve the plan?", Intent: &Intent{Kind: IntentPlanReview, Approve: "Yes", CallID: "c0"}},
}

var sampleView = QuestionsView{
	Active:  []PendingRow{{CallID: "c1", Questions: sampleQuestions, State: StateOpen}},
	Settled: []SettledRow{{CallID: "c0", Answers: []AnswerItem{{ID: "pkg", Selected: []string{"bun"}}, {ID: "x", Custom: ptr("own")}, {ID: "y"}}}},
}

const sampleViewJSON = `{"active":[{"callId":"c1","questions":[` +
	`{"id":"pkg","question":"Which package manager?","detail":"for the repo","header":"Setup","options":[{"label":"npm","description":"the default"},{"label":"bun"}],"multiSelect":false},` +
	`{"id":"plan","question":"Approve the plan?","intent":{"kind":"plan-review","approve":"Yes","callId":"c0"}}],"state":"open"}],` +
	`"settled":[{"callId":"c0","answers":[{"id":"pkg","selected":["bun"]},{"id":"x","selected":[],"custom":"own"},{"id":"y","selected":[]}]}]}`

var sampleReply = session.Source{Kind: session.SourceUserQuestionReply, CallID: "c1", Outcome: "answered"}

var sampleInbox = InboxView{
	NextTurn: []session.Message{{ID: "m1", Source: session.Source{Kind: session.SourceUser}, Text: "hi"}},
	NextStep: []session.Message{{ID: "m2", Source: sampleReply, Text: `{"answers":[]}`}, {ID: "m3", Source: session.Source{Kind: session.SourceUser}, NoText: true}},
}

const sampleInboxJSON = `{"next-turn":[{"id":"m1","source":{"kind":"user"},"text":"hi"}],` +
	`"next-step":[{"id":"m2","source":{"kind":"user-question-reply","callId":"c1","outcome":"answered"},"text":"{\"answers\":[]}"},` +
	`{"id":"m3","source":{"kind":"user"},"text":"","noText":true}]}`

var commandSamples = []commandSample{
	{"open-session", OpenSession{Session: "s1"}, `{"kind":"open-session","session":"s1"}`},
	{"open-session child", OpenSession{Session: "s2", Owner: "s1"}, `{"kind":"open-session","session":"s2","owner":"s1"}`},
	{"open-session fork at 0", OpenSession{Session: "s3", ForkOf: "s1", ForkThrough: 0}, `{"kind":"open-session","session":"s3","forkOf":"s1","forkThrough":0}`},
	{"open-session fork of empty", OpenSession{Session: "s4", ForkOf: "s1", ForkThrough: -1}, `{"kind":"open-session","session":"s4","forkOf":"s1","forkThrough":-1}`},
	{"close-session", CloseSession{Session: "s1"}, `{"kind":"close-session","session":"s1"}`},
	{"send", Send{Session: "s1", Target: session.NextTurn, Text: "Set up \"the\" project\n"}, `{"kind":"send","session":"s1","target":"next-turn","text":"Set up \"the\" project\n"}`},
	{"send with source", Send{Session: "s1", Target: session.NextStep, Text: `{"answers":[]}`, Source: sampleReply},
		`{"kind":"send","session":"s1","target":"next-step","text":"{\"answers\":[]}","source":{"kind":"user-question-reply","callId":"c1","outcome":"answered"}}`},
	{"header", Header{Session: "s1"}, `{"kind":"header","session":"s1"}`},
	{"header with tools", Header{Session: "s1", Tools: `[{"name":"sleep"}]`}, `{"kind":"header","session":"s1","tools":"[{\"name\":\"sleep\"}]"}`},
	{"tool-call", ToolCall{Session: "s1", CallID: "c1", Name: "ask_user_question", Args: `{"questions":[{"id":"q","question":"?"}],"timeoutSeconds":5}`},
		`{"kind":"tool-call","session":"s1","callId":"c1","name":"ask_user_question","args":"{\"questions\":[{\"id\":\"q\",\"question\":\"?\"}],\"timeoutSeconds\":5}"}`},
	{"tool-call invalid args", ToolCall{Session: "s1", CallID: "c2", Name: "sleep", Args: `{"ms":`}, `{"kind":"tool-call","session":"s1","callId":"c2","name":"sleep","args":"{\"ms\":"}`},
	{"end-step", EndStep{Session: "s1"}, `{"kind":"end-step","session":"s1"}`},
	{"end-step final", EndStep{Session: "s1", Final: true}, `{"kind":"end-step","session":"s1","final":true}`},
	{"cancel-turn", CancelTurn{Session: "s1"}, `{"kind":"cancel-turn","session":"s1"}`},
	{"cancel-turn keep-inbox", CancelTurn{Session: "s1", KeepInbox: true}, `{"kind":"cancel-turn","session":"s1","keepInbox":true}`},
	{"direct", Direct{ID: "d1", Op: OpAnswer, Session: "s1", Agent: AgentLive, Body: raw(`{"callId":"c1","answer":{"answers":[]}}`)},
		`{"kind":"direct","id":"d1","op":"answer","session":"s1","agent":"live","body":{"callId":"c1","answer":{"answers":[]}}}`},
	{"direct with a multi-line body", Direct{ID: "d2", Op: OpAsk, Session: "s1", Agent: AgentNone, Body: raw("{\n  \"questions\": []\n}")},
		`{"kind":"direct","id":"d2","op":"ask","session":"s1","agent":"none","bodyRaw":"{\n  \"questions\": []\n}"}`},
	{"direct without body", Direct{ID: "d3", Op: OpAskTimed, Session: "s1", Agent: AgentStale}, `{"kind":"direct","id":"d3","op":"askTimed","session":"s1","agent":"stale"}`},
	{"connect", Connect{Client: "a"}, `{"kind":"connect","client":"a"}`},
	{"disconnect", Disconnect{Client: "a"}, `{"kind":"disconnect","client":"a"}`},
	{"event-result next", EventResult{Client: "a", Gen: 1, RPCID: "a-r1", EventID: "e1", Outcome: Outcome{Kind: OutcomeNext}},
		`{"kind":"event-result","client":"a","gen":1,"rpcId":"a-r1","eventId":"e1","outcome":{"kind":"next"}}`},
	{"event-result result", EventResult{Client: "a", Gen: 2, RPCID: "a-r2", EventID: "e1", Outcome: Outcome{Kind: OutcomeResult, Value: raw(`{"answers":[{"id":"q","selected":["A"]}]}`)}},
		`{"kind":"event-result","client":"a","gen":2,"rpcId":"a-r2","eventId":"e1","outcome":{"kind":"result","value":{"answers":[{"id":"q","selected":["A"]}]}}}`},
	{"event-result result without value", EventResult{Client: "a", Gen: 2, RPCID: "a-r3", EventID: "e2", Outcome: Outcome{Kind: OutcomeResult}},
		`{"kind":"event-result","client":"a","gen":2,"rpcId":"a-r3","eventId":"e2","outcome":{"kind":"result"}}`},
	{"event-result rejected", EventResult{Client: "b", Gen: 1, RPCID: "b-r1", EventID: "e1", Outcome: Outcome{Kind: OutcomeRejected, Error: QuestionError(AskTimedOut, MsgAskTimedOut)}},
		`{"kind":"event-result","client":"b","gen":1,"rpcId":"b-r1","eventId":"e1","outcome":{"kind":"rejected","error":{"name":"UserQuestionError","code":"ASK_TIMED_OUT","message":"ask_user_question timed out before the user answered"}}}`},
	{"event-result rejected plain", EventResult{Client: "b", Gen: 1, RPCID: "b-r2", EventID: "e2", Outcome: Outcome{Kind: OutcomeRejected, Error: PlainError("wait ended")}},
		`{"kind":"event-result","client":"b","gen":1,"rpcId":"b-r2","eventId":"e2","outcome":{"kind":"rejected","error":{"name":"Error","message":"wait ended"}}}`},
	{"stream-open", StreamOpen{Client: "a", Gen: 1, StreamID: "a-s1", Endpoint: EndpointAttachWait, Args: raw(`{"agentId":"s1","callId":"c1"}`)},
		`{"kind":"stream-open","client":"a","gen":1,"streamId":"a-s1","endpoint":"userQuestions/attachWait","args":{"agentId":"s1","callId":"c1"}}`},
	{"stream-cancel", StreamCancel{Client: "a", Gen: 1, StreamID: "a-s1"}, `{"kind":"stream-cancel","client":"a","gen":1,"streamId":"a-s1"}`},
	{"call", Call{Client: "a", Gen: 0, RPCID: "a-r4", Endpoint: EndpointAnswer, Args: raw(`{"agentId":"s1","callId":"c1","answer":{"answers":[]}}`)},
		`{"kind":"call","client":"a","gen":0,"rpcId":"a-r4","endpoint":"userQuestions/answer","args":{"agentId":"s1","callId":"c1","answer":{"answers":[]}}}`},
	{"call with invalid args", Call{Client: "a", Gen: 3, RPCID: "a-r5", Endpoint: EndpointDiscard, Args: raw(`{"agentId":`)},
		`{"kind":"call","client":"a","gen":3,"rpcId":"a-r5","endpoint":"inbox/discard","argsRaw":"{\"agentId\":"}`},
	{"call with empty args", Call{Client: "a", Gen: 3, RPCID: "a-r6", Endpoint: EndpointDiscard, Args: raw("")},
		`{"kind":"call","client":"a","gen":3,"rpcId":"a-r6","endpoint":"inbox/discard","argsRaw":""}`},
	{"call with spaced args", Call{Client: "a", Gen: 3, RPCID: "a-r7", Endpoint: EndpointDiscard, Args: raw(` {"agentId": "s1"}`)},
		`{"kind":"call","client":"a","gen":3,"rpcId":"a-r7","endpoint":"inbox/discard","argsRaw":" {\"agentId\": \"s1\"}"}`},
	{"call with inner spaces", Call{Client: "a", Gen: 3, RPCID: "a-r8", Endpoint: EndpointDiscard, Args: raw(`{"agentId": "s1", "messageId": "m1"}`)},
		`{"kind":"call","client":"a","gen":3,"rpcId":"a-r8","endpoint":"inbox/discard","args":{"agentId": "s1", "messageId": "m1"}}`},
	{"tick", Tick{}, `{"kind":"tick"}`},
	{"restart", Restart{CutAfter: -1}, `{"kind":"restart","cutAfter":-1}`},
	{"restart cut-after 0", Restart{CutAfter: 0}, `{"kind":"restart","cutAfter":0}`},
	{"fail-inbox-write", FailInboxWrite{Session: "s1"}, `{"kind":"fail-inbox-write","session":"s1"}`},
	{"append-event", AppendEvent{Session: "s1", Event: session.Event{Data: session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Text: `{"pending":tru`}}},
		`{"kind":"append-event","session":"s1","event":{"seq":0,"time":0,"type":"tool/result","turn":1,"step":1,"callId":"c1","text":"{\"pending\":tru"}}`},
	{"claim-reply", ClaimReply{Session: "s1", CallID: "c1", Turn: 2}, `{"kind":"claim-reply","session":"s1","callId":"c1","turn":2}`},
	{"append-event turn/end", AppendEvent{Session: "s2", Event: session.Event{Data: session.TurnEnd{Turn: 2, Reason: session.TurnEndReason{Kind: session.EndCompleted}}}},
		`{"kind":"append-event","session":"s2","event":{"seq":0,"time":0,"type":"turn/end","turn":2,"reason":{"kind":"completed"}}}`},
}

var eventSamples = []eventSample{
	{"request/header", session.Event{Seq: 0, Time: 0, Data: session.RequestHeader{Reason: "initial", Tools: `[{"name":"ask_user_question"}]`}},
		`{"seq":0,"time":0,"type":"request/header","reason":"initial","tools":"[{\"name\":\"ask_user_question\"}]"}`},
	{"turn/start", session.Event{Seq: 1, Time: 10, Data: session.TurnStart{Turn: 1}}, `{"seq":1,"time":10,"type":"turn/start","turn":1}`},
	{"turn/end", session.Event{Seq: 9, Time: 900, Data: session.TurnEnd{Turn: 1, Reason: session.TurnEndReason{Kind: session.EndCompleted}}},
		`{"seq":9,"time":900,"type":"turn/end","turn":1,"reason":{"kind":"completed"}}`},
	{"turn/end aborted", session.Event{Seq: 9, Time: 900, Data: session.TurnEnd{Turn: 2, Reason: session.TurnEndReason{Kind: session.EndAborted, Detail: "user"}}},
		`{"seq":9,"time":900,"type":"turn/end","turn":2,"reason":{"kind":"aborted","detail":"user"}}`},
	{"step/start", session.Event{Seq: 2, Time: 10, Data: session.StepStart{Turn: 1, Step: 1}}, `{"seq":2,"time":10,"type":"step/start","turn":1,"step":1}`},
	{"step/end", session.Event{Seq: 8, Time: 890, Data: session.StepEnd{Turn: 1, Step: 2}}, `{"seq":8,"time":890,"type":"step/end","turn":1,"step":2}`},
	{"user/message", session.Event{Seq: 3, Time: 10, Data: session.UserMessage{Message: session.Message{ID: "m1", Source: session.Source{Kind: session.SourceUser}, Text: "Set up the project"}}},
		`{"seq":3,"time":10,"type":"user/message","message":{"id":"m1","source":{"kind":"user"},"text":"Set up the project"}}`},
	{"agent/inbox/spliced queued", session.Event{Seq: 4, Time: 20, Data: session.InboxSpliced{Target: session.NextStep, Start: 0, Inserted: []session.Message{{ID: "m2", Source: sampleReply, Text: `{"answers":[]}`}}}},
		`{"seq":4,"time":20,"type":"agent/inbox/spliced","target":"next-step","start":0,"removed":0,"inserted":[{"id":"m2","source":{"kind":"user-question-reply","callId":"c1","outcome":"answered"},"text":"{\"answers\":[]}"}]}`},
	{"agent/inbox/spliced discarded", session.Event{Seq: 5, Time: 30, Data: session.InboxSpliced{Target: session.NextStep, Start: 0, Removed: 1, Outcome: session.OutcomeCanceled}},
		`{"seq":5,"time":30,"type":"agent/inbox/spliced","target":"next-step","start":0,"removed":1,"inserted":[],"outcome":"canceled"}`},
	{"tool/call", session.Event{Seq: 6, Time: 40, Data: session.ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "sleep", Arguments: `{"ms":5}`}},
		`{"seq":6,"time":40,"type":"tool/call","turn":1,"step":1,"callId":"c1","name":"sleep","arguments":"{\"ms\":5}"}`},
	{"tool/result", session.Event{Seq: 7, Time: 45, Data: session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Text: "slept 5ms"}},
		`{"seq":7,"time":45,"type":"tool/result","turn":1,"step":1,"callId":"c1","text":"slept 5ms"}`},
	{"tool/result error", session.Event{Seq: 7, Time: 45, Data: session.ToolResult{Turn: 1, Step: 1, CallID: "c2", IsError: true,
		Err: session.ErrorInfo{Name: session.ToolOutcomeUnknownName, Code: session.ToolOutcomeUnknown}, Text: "outcome unknown"}},
		`{"seq":7,"time":45,"type":"tool/result","turn":1,"step":1,"callId":"c2","isError":true,"error":{"name":"ToolOutcomeUnknownError","code":"TOOL_OUTCOME_UNKNOWN"},"text":"outcome unknown"}`},
	{"tool/result no text", session.Event{Seq: 7, Time: 45, Data: session.ToolResult{Turn: 1, Step: 1, CallID: "c3", NoText: true}},
		`{"seq":7,"time":45,"type":"tool/result","turn":1,"step":1,"callId":"c3","text":"","noText":true}`},
	{"tool/result text and reasoning", session.Event{Seq: 7, Time: 45, Data: session.ToolResult{Turn: 1, Step: 1, CallID: "c4", Text: `{"pending":true,"callId":"c4","message":"m"}`, Reasoning: "the user is away"}},
		`{"seq":7,"time":45,"type":"tool/result","turn":1,"step":1,"callId":"c4","text":"{\"pending\":true,\"callId\":\"c4\",\"message\":\"m\"}","reasoning":"the user is away"}`},
	{"tool/ptc-dispatch-start", session.Event{Seq: 10, Time: 50, Data: session.PTCDispatchStart{Root: "c1", Parent: "c1", SubCallID: "c1:ptc:1", Name: "sleep", Arguments: `{"ms":1}`}},
		`{"seq":10,"time":50,"type":"tool/ptc-dispatch-start","rootCallId":"c1","parentCallId":"c1","subCallId":"c1:ptc:1","name":"sleep","arguments":"{\"ms\":1}"}`},
	{"tool/ptc-dispatch", session.Event{Seq: 11, Time: 51, Data: session.PTCDispatch{Root: "c1", Parent: "c1", SubCallID: "c1:ptc:1", Name: "ask_user_question", Arguments: `{}`,
		IsError: true, Err: session.ErrorInfo{Name: session.UserQuestionErrorName, Code: "ASK_ABORTED"}, Text: "aborted"}},
		`{"seq":11,"time":51,"type":"tool/ptc-dispatch","rootCallId":"c1","parentCallId":"c1","subCallId":"c1:ptc:1","name":"ask_user_question","arguments":"{}","isError":true,"error":{"name":"UserQuestionError","code":"ASK_ABORTED"},"text":"aborted"}`},
	// The shapes a real log holds beside the ones above (simrun export of the library and
	// the projection profile's edge logs are validated against the schemas these samples
	// give): a late reply as a user message, a message without text or outcome, a splice of
	// the user's own message, a PTC dispatch with no error.
	{"user/message late reply", session.Event{Seq: 12, Time: 60, Data: session.UserMessage{Message: session.Message{ID: "m3", Source: sampleReply, Text: `{"answers":[]}`}}},
		`{"seq":12,"time":60,"type":"user/message","message":{"id":"m3","source":{"kind":"user-question-reply","callId":"c1","outcome":"answered"},"text":"{\"answers\":[]}"}}`},
	{"user/message without text or outcome", session.Event{Seq: 12, Time: 60, Data: session.UserMessage{Message: session.Message{ID: "m4", Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: "c1"}, NoText: true}}},
		`{"seq":12,"time":60,"type":"user/message","message":{"id":"m4","source":{"kind":"user-question-reply","callId":"c1"},"text":"","noText":true}}`},
	{"agent/inbox/spliced the user's message and one without text", session.Event{Seq: 13, Time: 70, Data: session.InboxSpliced{Target: session.NextTurn, Start: 0,
		Inserted: []session.Message{{ID: "m5", Source: session.Source{Kind: session.SourceUser}, Text: "Use bun please"}, {ID: "m6", Source: session.Source{Kind: session.SourceUserQuestionReply, CallID: "c1"}, NoText: true}}}},
		`{"seq":13,"time":70,"type":"agent/inbox/spliced","target":"next-turn","start":0,"removed":0,"inserted":[{"id":"m5","source":{"kind":"user"},"text":"Use bun please"},{"id":"m6","source":{"kind":"user-question-reply","callId":"c1"},"text":"","noText":true}]}`},
	{"tool/ptc-dispatch pending", session.Event{Seq: 14, Time: 80, Data: session.PTCDispatch{Root: "c1", Parent: "c1", SubCallID: "c1:ptc:2", Name: "ask_user_question", Arguments: `{}`, Text: `{"pending":true}`}},
		`{"seq":14,"time":80,"type":"tool/ptc-dispatch","rootCallId":"c1","parentCallId":"c1","subCallId":"c1:ptc:2","name":"ask_user_question","arguments":"{}","text":"{\"pending\":true}"}`},
}

var effectSamples = []effectSample{
	{"send-frame ready", SendFrame{Client: "a", Gen: 1, Frame: Ready{Gen: 1}}, `{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"ready","gen":1}}`},
	{"send-frame waterfall", SendFrame{Client: "a", Gen: 1, Frame: Waterfall{EventID: "e1", Event: EventQuestionsRequest, AgentID: "s1", Request: raw(`{"questions":[{"id":"q","question":"?"}],"wait":{"callId":"c1","timed":true}}`)}},
		`{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"waterfall","eventId":"e1","event":"user-questions/request","agentId":"s1","request":{"questions":[{"id":"q","question":"?"}],"wait":{"callId":"c1","timed":true}}}}`},
	{"send-frame waterfall raw request", SendFrame{Client: "a", Gen: 1, Frame: Waterfall{EventID: "e2", Event: "x/y", AgentID: "s1", Request: raw("nope")}},
		`{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"waterfall","eventId":"e2","event":"x/y","agentId":"s1","requestRaw":"nope"}}`},
	{"send-frame cancel", SendFrame{Client: "a", Gen: 1, Frame: Cancel{EventID: "e1"}}, `{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"cancel","eventId":"e1"}}`},
	{"send-frame stream-item", SendFrame{Client: "a", Gen: 1, Frame: StreamItem{StreamID: "a-s1", Value: raw(`{"remainingMs":4000}`)}},
		`{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"stream-item","streamId":"a-s1","value":{"remainingMs":4000}}}`},
	{"send-frame stream-end", SendFrame{Client: "a", Gen: 1, Frame: StreamEnd{StreamID: "a-s1"}}, `{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"stream-end","streamId":"a-s1"}}`},
	{"send-frame stream-error", SendFrame{Client: "a", Gen: 1, Frame: StreamError{StreamID: "a-s1", Code: GatewayNotFound, Message: "no wait"}},
		`{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"stream-error","streamId":"a-s1","code":"gateway/lookup-not-found","message":"no wait"}}`},
	{"send-frame session-update", SendFrame{Client: "a", Gen: 2, Frame: SessionUpdate{Session: "s1", Reset: true, From: 0,
		Events: []session.Event{eventSamples[1].e, eventSamples[6].e}, Questions: sampleView, Inbox: sampleInbox}},
		`{"kind":"send-frame","client":"a","gen":2,"frame":{"kind":"session-update","session":"s1","reset":true,"from":0,"events":[` +
			eventSamples[1].json + `,` + eventSamples[6].json + `],"questions":` + sampleViewJSON + `,"inbox":` + sampleInboxJSON + `}}`},
	{"send-frame session-update empty", SendFrame{Client: "a", Gen: 2, Frame: SessionUpdate{Session: "s1", From: 12}},
		`{"kind":"send-frame","client":"a","gen":2,"frame":{"kind":"session-update","session":"s1","from":12,"events":[],"questions":{"active":[],"settled":[]},"inbox":{"next-turn":[],"next-step":[]}}}`},
	{"reply", Reply{Client: "a", Gen: 1, RPCID: "a-r4", Envelope: OKValue(raw("true"))}, `{"kind":"reply","client":"a","gen":1,"rpcId":"a-r4","envelope":{"ok":true,"value":true}}`},
	{"reply without value", Reply{Client: "a", Gen: 1, RPCID: "a-r1", Envelope: Envelope{OK: true}}, `{"kind":"reply","client":"a","gen":1,"rpcId":"a-r1","envelope":{"ok":true}}`},
	{"reply failure", Reply{Client: "a", Gen: 1, RPCID: "a-r5", Envelope: Failure(GatewayArgumentsInvalid, "bad args")},
		`{"kind":"reply","client":"a","gen":1,"rpcId":"a-r5","envelope":{"ok":false,"error":{"code":"gateway/arguments-invalid","message":"bad args"}}}`},
	{"appended", Appended{Session: "s1", Event: eventSamples[9].e}, `{"kind":"appended","session":"s1","event":` + eventSamples[9].json + `}`},
	{"persisted", Persisted{Session: "s1", Through: 0}, `{"kind":"persisted","session":"s1","through":0}`},
	{"wait-note created", WaitNote{Session: "s1", CallID: "c1", Kind: WaitCreated, Deadline: 5000}, `{"kind":"wait-note","session":"s1","callId":"c1","wait":"created","deadline":5000}`},
	{"wait-note armed", WaitNote{Session: "s1", CallID: "c1", Kind: WaitArmed, Deadline: 5000, At: 5000}, `{"kind":"wait-note","session":"s1","callId":"c1","wait":"armed","deadline":5000,"at":5000}`},
	{"wait-note claimed", WaitNote{Session: "s1", CallID: "c1", Kind: WaitClaimed, Remaining: 0, Claims: 1}, `{"kind":"wait-note","session":"s1","callId":"c1","wait":"claimed","remaining":0,"claims":1}`},
	{"wait-note released", WaitNote{Session: "s1", CallID: "c1", Kind: WaitReleased, Claims: 0}, `{"kind":"wait-note","session":"s1","callId":"c1","wait":"released","claims":0}`},
	{"wait-note expired", WaitNote{Session: "s1", CallID: "c1", Kind: WaitExpired}, `{"kind":"wait-note","session":"s1","callId":"c1","wait":"expired"}`},
	{"wait-note closed", WaitNote{Session: "s1", CallID: "c1", Kind: WaitClosed, Reason: "completion"}, `{"kind":"wait-note","session":"s1","callId":"c1","wait":"closed","reason":"completion"}`},
	{"direct-result", DirectResult{ID: "d1", Value: raw(`{"pending":true,"callId":"c1"}`)}, `{"kind":"direct-result","id":"d1","value":{"pending":true,"callId":"c1"}}`},
	{"direct-result error", DirectResult{ID: "d2", Err: QuestionError(CallerNotLive, "the caller is not live")},
		`{"kind":"direct-result","id":"d2","error":{"name":"UserQuestionError","code":"CALLER_NOT_LIVE","message":"the caller is not live"}}`},
}

var hostStateSample = HostState{
	Sessions: []SessionState{
		{ID: "s1", Inherited: 0, Persisted: 2, Log: []session.Event{eventSamples[0].e, eventSamples[1].e}, Questions: sampleView, Inbox: sampleInbox, Live: true, Root: true, Phase: "running"},
		{ID: "s2", Parent: "s1", Inherited: 1, Persisted: 0, Phase: "idle"},
	},
	Waits:        []WaitState{{Session: "s1", CallID: "c1", Deadline: 5000, Claims: 0, TimerAt: -1}},
	Reservations: []ReservationState{{Session: "s1", CallID: "c0", MessageID: "m2", ClaimedTurn: -1}},
	Clients:      []ConnState{{Client: "a", Gen: 2, Streams: 1}},
	Pending:      []PendingEvent{{EventID: "e1", AgentID: "s1", Deliveries: []string{"a", "b"}}, {EventID: "e2", AgentID: "s1"}},
}

const hostStateSampleJSON = `{"sessions":[` +
	`{"id":"s1","inherited":0,"persisted":2,"log":[{"seq":0,"time":0,"type":"request/header","reason":"initial","tools":"[{\"name\":\"ask_user_question\"}]"},{"seq":1,"time":10,"type":"turn/start","turn":1}],` +
	`"questions":` + sampleViewJSON + `,"inbox":` + sampleInboxJSON + `,"live":true,"root":true,"phase":"running"},` +
	`{"id":"s2","parent":"s1","inherited":1,"persisted":0,"log":[],"questions":{"active":[],"settled":[]},"inbox":{"next-turn":[],"next-step":[]},"phase":"idle"}],` +
	`"waits":[{"session":"s1","callId":"c1","deadline":5000,"claims":0,"timerAt":-1}],` +
	`"reservations":[{"session":"s1","callId":"c0","messageId":"m2","claimedTurn":-1}],` +
	`"clients":[{"client":"a","gen":2,"streams":1}],` +
	`"pending":[{"eventId":"e1","agentId":"s1","deliveries":["a","b"]},{"eventId":"e2","agentId":"s1","deliveries":[]}]}`

var hostConfigSamples = []struct {
	c    HostConfig
	json string
}{
	{HostConfig{}, `{}`},
	{HostConfig{ToolMode: "timed", DefaultTimeoutSec: 5, DefaultTimeoutSet: true, WriteWindowMs: -1}, `{"toolMode":"timed","defaultTimeoutSec":5,"writeWindowMs":-1}`},
	{HostConfig{ToolMode: "legacy"}, `{"toolMode":"legacy"}`},
	{HostConfig{DefaultTimeoutSec: -1, DefaultTimeoutSet: true, WriteWindowMs: 50}, `{"defaultTimeoutSec":-1,"writeWindowMs":50}`},
	{HostConfig{ToolMode: "timed", DefaultTimeoutSet: true}, `{"toolMode":"timed","defaultTimeoutSec":0}`},
}
