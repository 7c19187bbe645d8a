package scenarios

import "go.yaml.in/yaml/v3"

// The kinds of the format, one file each. A step kind is an actor (step_<actor>.go) and an
// expectation kind a check (expect_<kind>.go, dashes as underscores); its file declares it
// once: its keys (the spec table entry the decoder checks and the schema is generated
// from), its decoding, its validation and its encoding. The generic loops of decode.go,
// validate.go, encode.go and schema.go dispatch through the lists below, whose order is
// the order of hints, of schema.json and of FORMAT.md. What a kind means at run time (a
// step's compile, an expectation's check) is package harness's, in a file of the same
// name there; TestKindFiles (here) and harness's TestEveryKindHasItsHarnessFile keep the
// two sides whole.
//
// Adding a kind: its file here, one line in the list below, its harness file, its test
// and its FORMAT.md entry; then go test ./scenarios -run TestSchemaFile -update.

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
