package scenarios

// The vocabulary of the YAML format, as data: every object's keys with their value type
// and a one-line description. The decoder checks keys against these tables (so an
// unknown key is an error with a hint) and schema.go generates schema.json from the same
// tables, so the two cannot drift apart; TestSchemaFile checks the file is current.

// key is one key of an object.
type key struct {
	Name     string
	Type     string // a type name of schemaTypes, or "#def" for a $defs reference
	Required bool
	Doc      string
}

// object is one YAML mapping of the format.
type object struct {
	Name string // its $defs name
	Doc  string
	Keys []key
}

func (o *object) names() []string {
	out := make([]string, len(o.Keys))
	for i, k := range o.Keys {
		out[i] = k.Name
	}
	return out
}

func (o *object) has(name string) bool {
	for _, k := range o.Keys {
		if k.Name == name {
			return true
		}
	}
	return false
}

var scenarioObject = &object{Name: "scenario", Doc: "A twosettle scenario.", Keys: []key{
	{"name", "name", true, "The scenario's name: lowercase words joined by dashes; a library file is named after it."},
	{"summary", "text", true, "One line that says what the scenario shows."},
	{"covers", "#covers", false, "The requirement ids (docs/REQUIREMENTS.md) the scenario exercises."},
	{"seed", "uint", false, "The run's seed (default 1)."},
	{"mode", "#mode", false, "The ask_user_question tool mode: legacy (default) or timed."},
	{"timeout", "int", false, "The tool's configured default timeout in whole seconds; -1 waits indefinitely (default 120)."},
	{"write-window", "duration", false, "The host's write-behind window (default 200ms, the peer's); 0s writes every event through."},
	{"auto-end", "#auto-end", false, "How long after a step opens the model ends it when the script gives it nothing more to do, or never."},
	{"limit", "duration", false, "The virtual time limit of the run; 0 (default) runs until nothing is left to happen."},
	{"sessions", "#sessions", false, "Sessions opened at time 0, in order (default: one root Session s1)."},
	{"clients", "#clients", false, "The answer UIs by name, each with its link and clock (default: none)."},
	{"steps", "#steps", false, "Timed actions, in time order, each addressed to one actor."},
	{"expect", "#expect", false, "Checks at a time or at the end of the run."},
	{"explore", "#explore", false, "How to explore around this scenario (seeds, jitter, random faults)."},
}}

var sessionObject = &object{Name: "session", Doc: "A Session opened at time 0.", Keys: []key{
	{"owner", "ident", false, "Open it as a child owned by this Session's live agent (DELEGATED_CALLER)."},
}}

var clientObject = &object{Name: "client", Doc: "One answer UI and its network link.", Keys: []key{
	{"latency", "latency", false, "Delay of the ordered mux link (events, streams): 20ms or a range 10ms..50ms (default 0)."},
	{"http", "latency", false, "Delay of the request/response channel (results, RPCs), each way (default: the latency)."},
	{"skew", "signed-duration", false, "The client's clock offset against the host's, e.g. +2s or -500ms."},
	{"drift", "ppm", false, "The client's clock rate error, e.g. 500ppm."},
	{"tick", "duration", false, "The countdown's tick (default 1s, as the peer)."},
	{"offline", "bool", false, "The client does not connect at time 0 (a net reconnect step connects it)."},
	{"hold", "bool", false, "An answerer that takes every delivery and holds it, never claiming, answering or passing, and has no user (inject steps answer for it)."},
	{"reconnect", "duration", false, "How long after losing its link the client dials again (default: never by itself)."},
}}

var stepObject = &object{Name: "step", Doc: "One timed action; besides at (and session) exactly one actor key: model, host, service, net or a client's name.", Keys: stepKeys()}

// Model action mappings: each is one verb key plus the keys that go with it.
var (
	modelHeaderObject = &object{Name: "model-header", Doc: "A request header with these raw JSON tools.", Keys: []key{
		{"header", "raw", true, "The raw JSON of the header's tools."},
	}}
	modelAskObject = &object{Name: "model-ask", Doc: "Call ask_user_question.", Keys: []key{
		{"call", "ident", true, "The call id."},
		{"ask", "#questions-or-raw", true, "The questions, or the raw argument string as the model sends it."},
		{"timeout", "json-number", false, "The model's timeout argument in seconds, written as the model writes it (omitted: the default)."},
	}}
	modelRunObject = &object{Name: "model-run", Doc: "Call run_code; its sub-calls run in order with ids <call>:ptc:1, <call>:ptc:2, ...", Keys: []key{
		{"call", "ident", true, "The call id."},
		{"run", "#calls-or-raw", true, "The sub-calls, or the raw argument string."},
	}}
	modelSleepObject = &object{Name: "model-sleep", Doc: "Call the sleep tool, which takes virtual time.", Keys: []key{
		{"call", "ident", true, "The call id."},
		{"sleep", "duration", true, "How long the tool takes."},
	}}
	modelToolObject = &object{Name: "model-tool", Doc: "Call another (instant) tool.", Keys: []key{
		{"call", "ident", true, "The call id."},
		{"tool", "ident", true, "The tool's name."},
		{"args", "raw", false, "The raw argument string (default {})."},
	}}
	modelPromptObject = &object{Name: "model-prompt", Doc: "A user message for the next turn.", Keys: []key{
		{"prompt", "text", true, "The message text."},
		{"source", "#message-source", false, "The message's recorded source, as another producer or an older host wrote it (default: the user's own message)."},
	}}
	modelSteerObject = &object{Name: "model-steer", Doc: "A user message for the next step (a steer).", Keys: []key{
		{"steer", "text", true, "The message text."},
		{"source", "#message-source", false, "The message's recorded source, as another producer or an older host wrote it (default: the user's own message)."},
	}}
	// messageSourceObject is a prompt's or steer's recorded source.
	messageSourceObject = &object{Name: "message-source", Doc: "A message source: kind user-question-reply with call and outcome answered marks a late reply.", Keys: []key{
		{"kind", "text", true, "The source kind, e.g. user-question-reply."},
		{"call", "text", false, "The call id the message answers."},
		{"outcome", "text", false, "The reply's outcome, e.g. answered."},
	}}
	modelCancelObject = &object{Name: "model-cancel", Doc: "Cancel the turn and keep the inbox.", Keys: []key{
		{"cancel", "#keep-inbox", true, "keep-inbox: queued messages stay."},
	}}
	modelObjects = []*object{modelHeaderObject, modelAskObject, modelRunObject, modelSleepObject, modelToolObject, modelPromptObject, modelSteerObject, modelCancelObject}
	// modelWords are the model actions written as a plain word.
	modelWords = []string{ModelHeader, ModelEndStep, ModelEndTurn, ModelCancel}
)

// Sub-calls of run.
var (
	subAskObject = &object{Name: "sub-ask", Doc: "A sub-call of ask_user_question.", Keys: []key{
		{"ask", "#questions-or-raw", true, "The questions, or the raw arguments JSON object."},
		{"timeout", "json-number", false, "The timeout argument in seconds."},
	}}
	subSleepObject = &object{Name: "sub-sleep", Doc: "A sub-call of the sleep tool.", Keys: []key{
		{"sleep", "duration", true, "How long it takes."},
	}}
	subToolObject = &object{Name: "sub-tool", Doc: "A sub-call of another tool.", Keys: []key{
		{"tool", "ident", true, "The tool's name."},
		{"args", "raw", false, "The raw arguments JSON object (default {})."},
	}}
	subObjects = []*object{subAskObject, subSleepObject, subToolObject}
)

var questionObject = &object{Name: "question", Doc: "One question of a batch.", Keys: []key{
	{"id", "text", true, "The question id, echoed in answers."},
	{"question", "text", true, "The question text."},
	{"header", "text", false, "A short header."},
	{"detail", "text", false, "Markdown detail (service asks only; the model's schema has no detail)."},
	{"options", "#options", false, "The options: labels, or {label, description}."},
	{"multi", "bool", false, "Several options may be selected."},
	{"plan-review", "text", false, "Marks a plan-review intent whose approve option is this label (service asks only)."},
}}

var answerObject = &object{Name: "answer", Doc: "An answer with a custom text (or with both labels and a custom text).", Keys: []key{
	{"selected", "#texts", false, "The selected labels."},
	{"custom", "text", false, "The custom text."},
}}

var optionObject = &object{Name: "option", Doc: "An option with a description.", Keys: []key{
	{"label", "text", true, "The label, which is also the value sent back."},
	{"description", "text", false, "Its description."},
}}

// valueObjects are the objects several kinds' values share. schema.json lists them after
// the model's objects, the first kind to use them.
var valueObjects = []*object{questionObject, optionObject, answerObject}

// Host actions.
var (
	hostCrashObject = &object{Name: "host-crash", Doc: "Crash the host at a named point, then load it cold.", Keys: []key{
		{"crash", "#crash-point", true, "Where the crash lands."},
		{"effects", "uint", false, "after-effect: how many of the next command's effects survive."},
	}}
	hostOpenObject = &object{Name: "host-open", Doc: "Open a Session: a root, a child (owner) or a fork (fork, through).", Keys: []key{
		{"open", "ident", true, "The new Session."},
		{"owner", "ident", false, "Its owner, making it a child."},
		{"fork", "ident", false, "The Session it forks."},
		{"through", "int", false, "The last inherited seq of the fork (-1: none)."},
	}}
	hostCloseObject = &object{Name: "host-close", Doc: "Dispose the Session's live agent; the log stays and a later call resumes it.", Keys: []key{
		{"close", "ident", true, "The Session."},
	}}
	hostFailInboxWriteObject = &object{Name: "host-fail-inbox-write", Doc: "A storage fault: the Session's next inbox write (a prompt, a steer, a late reply) fails as a persistence write error.", Keys: []key{
		{"fail-inbox-write", "ident", true, "The Session."},
	}}
	hostAppendObject = &object{Name: "host-append", Doc: "A Session event written by hand, as if the Session's runtime had recorded it: the log, the questions projection and the reservations see it; the agent's live state does not change.", Keys: []key{
		{"append", "ident", true, "The Session."},
		{"event", "raw", true, "The event as the protocol's JSON object (docs/protocol/event.schema.json) without seq and time, which are the host's: '{\"type\":\"tool/result\",\"turn\":1,\"step\":1,\"callId\":\"c1\",\"text\":\"{}\"}'."},
	}}
	hostClaimReplyObject = &object{Name: "host-claim-reply", Doc: "The question service is told that the reply queued for a call was claimed into a turn (the runtime's claimed notification, by hand): the inbox keeps the message and the log is unchanged.", Keys: []key{
		{"claim-reply", "ident", true, "The Session."},
		{"call", "ident", true, "The call whose queued late reply is claimed."},
		{"turn", "uint", true, "The turn it is claimed into."},
	}}
	hostStallObject = &object{Name: "host-stall", Doc: "The host's timers do not fire for this long (its clock jumped past them, or its event loop was blocked): what comes due fires at the next command it takes, or when the stall ends.", Keys: []key{
		{"stall", "duration", true, "How long."},
	}}
	hostObjects = []*object{hostCrashObject, hostOpenObject, hostCloseObject, hostFailInboxWriteObject, hostAppendObject, hostClaimReplyObject, hostStallObject}
	hostWords   = []string{HostRestart, HostCrash}
)

// Service calls.
var (
	serviceAskObject = &object{Name: "service-ask", Doc: "ask(): the blocking path.", Keys: []key{
		{"ask", "#questions-or-raw", true, "The questions, or the raw JSON body."},
		{"id", "ident", false, "Names the result (default d1, d2, ... in step order)."},
		{"agent", "#agent", false, "The caller: live (default), stale or none."},
		{"wait", "ident", false, "Tie the request to this call id (wait: {callId})."},
		{"timed", "bool", false, "With wait: a timed wait (wait: {callId, timed: true})."},
		{"aborted", "bool", false, "The request's signal is already aborted."},
	}}
	serviceAskTimedObject = &object{Name: "service-ask-timed", Doc: "askTimed(): the foreground wait.", Keys: []key{
		{"ask-timed", "#questions-or-raw", true, "The questions, or the raw JSON body."},
		{"id", "ident", false, "Names the result (default d1, d2, ... in step order)."},
		{"agent", "#agent", false, "The caller: live (default), stale or none."},
		{"call", "ident", false, "The call id (default: the result id)."},
		{"timeout", "signed-duration", false, "The timeout in milliseconds (default 120s; negative values test BAD_TIMEOUT)."},
		{"aborted", "bool", false, "The parent signal is already aborted."},
	}}
	serviceAnswerObject = &object{Name: "service-answer", Doc: "answer(): a late answer to a continued question.", Keys: []key{
		{"answer", "#answers-or-raw", true, "The batch by question id, or the raw JSON body."},
		{"id", "ident", false, "Names the result (default d1, d2, ... in step order)."},
		{"agent", "#agent", false, "The caller: live (default), stale or none."},
		{"call", "ident", false, "The call id answered (required unless the body is raw)."},
	}}
	serviceObjects = []*object{serviceAskObject, serviceAskTimedObject, serviceAnswerObject}
)

// Net actions.
var (
	netDisconnectObject = &object{Name: "net-disconnect", Doc: "Drop the client's link now.", Keys: []key{{"disconnect", "ident", true, "The client."}}}
	netReconnectObject  = &object{Name: "net-reconnect", Doc: "Have the client dial now.", Keys: []key{{"reconnect", "ident", true, "The client."}}}
	netPartitionObject  = &object{Name: "net-partition", Doc: "Cut the client's links for a while: what is in flight is lost.", Keys: []key{
		{"partition", "ident", true, "The client."},
		{"for", "duration", true, "How long."},
	}}
	netDelayObject = &object{Name: "net-delay", Doc: "Delay the client's next HTTP message.", Keys: []key{
		{"delay", "ident", true, "The client."},
		{"by", "duration", true, "How much is added."},
	}}
	netLoseObject = &object{Name: "net-lose", Doc: "Lose the client's next HTTP message (request or reply).", Keys: []key{{"lose", "ident", true, "The client."}}}
	netObjects    = []*object{netDisconnectObject, netReconnectObject, netPartitionObject, netDelayObject, netLoseObject}
)

// User actions: a plain word, or one verb key with its modifiers.
var (
	// userCardVerbs take the card (a call id, "#N", or nothing for the card in the composer seat).
	userCardVerbs = []string{UserFocus, UserBlur, UserSkip, UserNext, UserPrev, UserTakeTime, UserSubmit, UserHide, UserClose, UserReopen, UserDiscard, UserDelegate, UserContinue, UserToggleRow}
	// userWords are written as a plain word only.
	userWords       = []string{UserWindowBlur, UserWindowFocus, UserTeardown, UserReload, UserCrash, UserUnbind, UserBind}
	userCardObjects = func() []*object {
		var out []*object
		for _, v := range userCardVerbs {
			keys := []key{{v, "card", true, "The card: a call id, #N for the N-th card with no call id, or ~ for the card in the composer seat."}}
			if v == UserSkip {
				keys = append(keys, key{"q", "text", false, "The question (default: the current one)."})
			}
			out = append(out, &object{Name: "user-" + v, Doc: userDocs[v], Keys: keys})
		}
		return out
	}()
	userChooseObject = &object{Name: "user-choose", Doc: "Click an option.", Keys: []key{
		{"choose", "text", true, "The option's label."},
		{"q", "text", false, "The question (default: the current one)."},
		{"card", "ident", false, "The card (default: the one in the composer seat)."},
	}}
	userTypeObject = &object{Name: "user-type", Doc: "Type a custom answer.", Keys: []key{
		{"type", "text", true, "The text."},
		{"q", "text", false, "The question (default: the current one)."},
		{"card", "ident", false, "The card (default: the one in the composer seat)."},
	}}
	userClockObject = &object{Name: "user-clock", Doc: "The client's clock jumps.", Keys: []key{
		{"clock", "signed-duration", true, "By how much, e.g. +30s or -5s."},
	}}
	userDriftObject = &object{Name: "user-drift", Doc: "The client's clock drift changes from now on.", Keys: []key{
		{"drift", "ppm", true, "The new drift, e.g. 20000ppm."},
	}}
	userInputObject = &object{Name: "user-input", Doc: "A client input delivered as it is (a frame or a reply as a real host may send it).", Keys: []key{
		{"input", "raw", true, "The client input's JSON (docs/PROTOCOL.md, Clients), e.g. '{\"kind\":\"from-host\",\"frame\":{…}}'."},
	}}
	userObjects = append(append([]*object(nil), userCardObjects...), userChooseObject, userTypeObject, userClockObject, userDriftObject, userInputObject)
)

var userDocs = map[string]string{
	UserFocus:     "Focus moves into the card's answer surface.",
	UserBlur:      "Focus leaves it.",
	UserSkip:      "Skip the current question.",
	UserNext:      "Pager: the next question (navigation, not an edit).",
	UserPrev:      "Pager: the previous question.",
	UserTakeTime:  "Take time: freeze this client's countdown for good.",
	UserSubmit:    "Submit the batch.",
	UserHide:      "Hide the panel of a keyed card.",
	UserClose:     "The close button: hide (keyed card) or cancel with ASK_CANCELLED (unkeyed card).",
	UserReopen:    "The tool row's action (Answer / View answers).",
	UserDiscard:   "Discard the queued reply of the card from the inbox.",
	UserDelegate:  "The UI hands the card's forwarded request on: its claim is released, then next().",
	UserContinue:  "The guarded Continue (the primary button, or Enter in the text field): refused while the current question is unanswered, next question otherwise, submit on the last.",
	UserToggleRow: "The tool row's own expand/collapse toggle (its disclosure, not the Answer / View answers pill); name the call.",
}

var injectObject = &object{Name: "inject", Doc: "An $events/result a client sends for a delivery: next, an answer, or a rejection; or a claim stream it opens.", Keys: []key{
	{"client", "ident", true, "The client that sends it."},
	{"event", "ident", false, "The delivery's event id (e1, e2, ... in creation order); required except with attach."},
	{"gen", "uint", false, "The client's connection generation (default 1)."},
	{"next", "true", false, "Pass the request on."},
	{"answer", "#answers", false, "Answer with this batch."},
	{"rejected", "text", false, "Reject with this error: Name: message, or Name/CODE: message."},
	{"attach", "ident", false, "Instead of an outcome: open a claim stream (attach-wait) for this call id in generation gen."},
}}

var exploreObject = &object{Name: "explore", Doc: "How to explore around the scenario.", Keys: []key{
	{"seeds", "uint", false, "How many seeds to run."},
	{"jitter", "duration", false, "How far each step time may move either way."},
	{"faults", "#faults", false, "Random faults: mean injections per simulated minute."},
	{"healed", "duration", false, "When random faults stop (the healed phase starts)."},
}}

var faultsObject = &object{Name: "faults", Doc: "Rates of random faults per simulated minute (0: off).", Keys: []key{
	{"crash", "rate", false, "Host crashes."},
	{"disconnect", "rate", false, "Client link drops."},
	{"reload", "rate", false, "Client reloads."},
	{"clock-jump", "rate", false, "Client clock jumps."},
	{"partition", "rate", false, "Partitions."},
	{"lose", "rate", false, "Lost HTTP messages."},
}}

// Expectations: at, one kind key whose value is the subject, the narrowing keys, and the
// kind's assertions.
var expectCommon = []key{
	{"at", "#at", true, "When to look: a time, or end."},
}

// Each expectation kind's keys (its subject first, then its assertions) are declared in
// its own file, expect_<kind>.go; kinds.go lists them.

// Value vocabularies.
var (
	modes       = []string{ModeLegacy, ModeTimed}
	agents      = []string{AgentLive, AgentStale, AgentNone}
	cardStates  = []string{"open", "continued"}
	cardKinds   = []string{"question", "plan-review", "review"}
	waitStates  = []string{"counting", "focused", "editing", "waiting", "continued"}
	channels    = []string{"waterfall", "rpc", "none"}
	rowStates   = []string{"ok", "stopped", "error", "running"}
	phases      = []string{"idle", "running"}
	reservedIDs = []string{"at", "session", ActorModel, ActorHost, ActorService, ActorNet, "user", "sim", "end"}
)
