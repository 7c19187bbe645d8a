package scenarios

// The vocabulary of the YAML format, as data: every object's keys with their value type
// and a one-line description. The decoder checks keys against these tables (so an
// unknown key is an error with a hint) and schema.go generates schema.json from the same
// tables, so the two cannot drift apart; TestSchemaFile checks the file is current.
// This file holds the tables the kinds share (the scenario, clients, Sessions, the step,
// questions and answers); each kind's own tables are in its file (kinds.go).

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
