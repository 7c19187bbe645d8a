package scenarios

import "go.yaml.in/yaml/v3"

// The kinds of the format, one file each. A step kind is an actor (step_<actor>.go) and an
// expectation kind a check (expect_<kind>.go, dashes as underscores); its file declares it
// once: its keys (the spec table entry the decoder checks and the schema is generated
// from), its decoding, its validation and its encoding. The generic loops of decode.go,
// validate.go, encode.go and schema.go dispatch through the lists below, whose order is
// the order of hints, of schema.json and of FORMAT.md. What a kind means at run time (a
// step's compile, an expectation's check) is package harness's, in a file of the same
// name there; TestKindFiles, TestKindsAreInFormat, TestGeneratorDrawsEveryKind (here)
// and harness's TestEveryKindHasItsHarnessFile keep a kind whole.
//
// Adding a kind: its file here, one line in the list below (a step kind also needs its
// field in Step), its harness file, its test and its FORMAT.md entry; then go test
// ./scenarios -run TestSchemaFile -update-schema.

// expectationKind is one expectation kind. Its object's Name is the kind and its first
// key the subject (the kind key); the other keys are the assertions it allows, each read,
// checked and written by the shared assertion table (assertions.go).
type expectationKind struct {
	*object
	// subject reads the subject's value; nil: by the subject key's type (an ident, or text).
	subject func(d *dec, n *yaml.Node) (string, bool)
	// perClient: about one client's view, so with several clients client: is needed.
	perClient bool
	// oneOutcome: at most one of the outcome assertions (pending, answers, error, text,
	// value, none).
	oneOutcome bool
	// validate checks the subject and what the kind's keys mean together.
	validate func(v *validator, e *Expectation)
}

// expectKinds are the expectation kinds, in the order of hints, schema and FORMAT.md.
var expectKinds = []*expectationKind{
	expectToolResultKind,
	expectResultKind,
	expectReplyKind,
	expectViewKind,
	expectInboxKind,
	expectEventKind,
	expectRecordKind,
	expectHostWaitKind,
	expectReservationKind,
	expectAgentKind,
	expectCardKind,
	expectRowKind,
	expectNodeKind,
	expectDraftKind,
	expectLinkKind,
	expectHostConfigKind,
	expectConversationKind,
	expectOracleKind,
}

func expectKind(name string) *expectationKind {
	for _, o := range expectKinds {
		if o.Name == name {
			return o
		}
	}
	return nil
}

func expectKindNames() []string {
	out := make([]string, len(expectKinds))
	for i, o := range expectKinds {
		out[i] = o.Name
	}
	return out
}

// ExpectKinds are the names of the expectation kinds, in the format's order.
func ExpectKinds() []string { return expectKindNames() }

// readSubject reads an expectation's subject: by the kind's own reader, or by its key's
// type.
func (k *expectationKind) readSubject(d *dec, n *yaml.Node) (string, bool) {
	switch {
	case k.subject != nil:
		return k.subject(d, n)
	case k.Keys[0].Type == "ident":
		return d.ident(n, k.Name)
	}
	return d.text(n, k.Name)
}

// keyType is the type of the kind's key name ("" when it has none).
func (k *expectationKind) keyType(name string) string {
	for _, x := range k.Keys {
		if x.Name == name {
			return x.Type
		}
	}
	return ""
}

// Subject checks shared by several kinds.

// subjectCall: the subject is a call of the scenario.
func subjectCall(v *validator, e *Expectation) {
	if !v.knownCall(e.Subject) {
		v.fail(e.Pos, "the calls are "+v.callList(), "unknown call %q", e.Subject)
	}
}

// subjectCard: the subject is a card (a call id or #N).
func subjectCard(v *validator, e *Expectation) {
	v.card(e.Pos, e.Subject)
	if e.Subject == "" {
		v.fail(e.Pos, "name the card's call id, or #N", "a %s expectation names its card", e.Kind)
	}
}

// subjectClient: the subject is a declared client.
func subjectClient(v *validator, e *Expectation) { v.client(e.Pos, e.Subject) }

// subjectText: the subject is a text to look for.
func subjectText(v *validator, e *Expectation) {
	if e.Subject == "" {
		v.fail(e.Pos, "write the text to look for", "an empty %s", e.Kind)
	}
}

// atEnd: the kind is about the whole run.
func atEnd(v *validator, e *Expectation) {
	if !e.End {
		v.fail(e.Pos, "write at: end", "a %s expectation is about the whole run", e.Kind)
	}
}

// stepKind is one actor of a step: the key that names it, the objects its value may be,
// and how it is read, checked and written.
type stepKind struct {
	// name is the actor's step key and its name in schema.json's $defs; a client's user
	// (byClient) is keyed by the client's name instead.
	name     string
	byClient bool
	// key is the actor's entry in the step's keys (zero when byClient).
	key key
	// hinted: named in the "the actors are ..." hint (inject, a protocol-level actor, is not).
	hinted bool
	// sessionless: the step is not about one Session (session: does not go with it).
	sessionless bool
	// defs are the $defs the kind adds to schema.json, in its order. A kind whose value is
	// a plain word or one of several mappings (each named by its verb key) lists them in
	// words and verbs, and choice is the doc of that oneOf ("": the value is defs[0]).
	defs   []*object
	words  []string
	verbs  []*object
	choice string

	// is reports whether st is a step of this kind.
	is func(st *Step) bool
	// decode reads the actor's value n (keyed by key) into st.
	decode func(d *dec, st *Step, key string, n *yaml.Node) bool
	// validate checks the step's action (its Session is checked already).
	validate func(v *validator, st *Step)
	// encode writes the actor's value.
	encode func(st *Step) *yaml.Node
	// refusable reports whether the step reaches a port as an input that can be refused
	// (nil: never).
	refusable func(st *Step) bool
	// calls adds the call ids the step names (resultID is its service result id); nil:
	// none.
	calls func(st *Step, resultID string, add func(string))
}

// stepKinds are the actors of a step, in the order of the step's keys, hints and schema.
var stepKinds = []*stepKind{
	modelStep,
	hostStep,
	serviceStep,
	netStep,
	userStep,
	injectStep,
}

// StepKinds are the names of the step kinds (actors), in the format's order.
func StepKinds() []string {
	out := make([]string, len(stepKinds))
	for i, k := range stepKinds {
		out[i] = k.name
	}
	return out
}

// stepKindOf is the kind of a step (nil when it has no actor).
func stepKindOf(st *Step) *stepKind {
	for _, k := range stepKinds {
		if k.is(st) {
			return k
		}
	}
	return nil
}

// stepKindNamed is the kind whose step key is name (nil: none; a client's name is not).
func stepKindNamed(name string) *stepKind {
	for _, k := range stepKinds {
		if !k.byClient && k.name == name {
			return k
		}
	}
	return nil
}

// byClientKind is the kind keyed by a client's name.
func byClientKind() *stepKind {
	for _, k := range stepKinds {
		if k.byClient {
			return k
		}
	}
	return nil
}

// stepKeys are the step's keys: at, session, each actor's key, refused.
func stepKeys() []key {
	keys := []key{
		{"at", "duration", true, "When the step happens (virtual time since the start)."},
		{"session", "ident", false, "The Session a model, service or client step is about (default: the first)."},
	}
	for _, k := range stepKinds {
		if !k.byClient {
			keys = append(keys, k.key)
		}
	}
	return append(keys, key{"refused", "text", false, "The step is expected to be refused, with an error containing this text (a disabled control, a command the host cannot take now)."})
}
