package scenarios

import "go.yaml.in/yaml/v3"

// The assertion keys of expectations: each is one field of Expectation, shared by the
// kinds that list it among their keys (expect_<kind>.go). One entry says how the key is
// read, whether it is set and how it is written; the table's order is the canonical order
// Encode writes them in.
type assertionKey struct {
	name string
	// decode reads the key's value into e; kind is the expectation's kind (a key's type
	// can differ by kind, as state's does).
	decode func(d *dec, n *yaml.Node, e *Expectation, kind *expectationKind) bool
	// set reports whether e asserts the key.
	set func(e *Expectation) bool
	// unlisted keeps the key out of assertions: Validate does not check it against the
	// kind's keys (as before the table; the decoder does).
	unlisted bool
	// encode is the key's value, written when set.
	encode func(e *Expectation) *yaml.Node
	// outcome: one of the outcomes of a result (see expectationKind.oneOutcome).
	outcome bool
}

var assertionKeys = []assertionKey{
	textKey("session", func(e *Expectation) *string { return &e.Session }, true),
	textKey("client", func(e *Expectation) *string { return &e.Client }, true),
	{name: "pending", outcome: true,
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			e.Pending = d.isTrue(n, "pending")
			return e.Pending
		},
		set:    func(e *Expectation) bool { return e.Pending },
		encode: func(e *Expectation) *yaml.Node { return boolNode(true) }},
	{name: "answers", outcome: true,
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			var k bool
			e.Answers, k = d.answers(n)
			e.HasAns = true
			return k
		},
		set:    func(e *Expectation) bool { return e.HasAns },
		encode: func(e *Expectation) *yaml.Node { return answersNode(e.Answers) }},
	outcomeKey(textKey("error", func(e *Expectation) *string { return &e.Error }, false)),
	{name: "value", outcome: true,
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			var k bool
			e.Value, k = d.rawJSON(n, "value")
			return k
		},
		set:    func(e *Expectation) bool { return e.Value != "" },
		encode: func(e *Expectation) *yaml.Node { return str(e.Value) }},
	outcomeKey(textKey("text", func(e *Expectation) *string { return &e.Text }, false)),
	textKey("contains", func(e *Expectation) *string { return &e.Contains }, false),
	durationKey("time", func(e *Expectation) **Duration { return &e.Time }),
	countKey("count", func(e *Expectation) **int { return &e.Count }),
	countKey("claims", func(e *Expectation) **int { return &e.Claims }),
	durationKey("deadline", func(e *Expectation) **Duration { return &e.Deadline }),
	{name: "timer",
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			if n.Kind == yaml.ScalarNode && n.Value == "none" {
				e.Timer = "none"
				return true
			}
			t, k := d.duration(n, "timer", false)
			e.Timer = t.String()
			return k
		},
		set:    func(e *Expectation) bool { return e.Timer != "" },
		encode: func(e *Expectation) *yaml.Node { return word(e.Timer) }},
	boolKey("claimed", func(e *Expectation) **bool { return &e.Claimed }),
	boolKey("live", func(e *Expectation) **bool { return &e.Live }),
	boolKey("root", func(e *Expectation) **bool { return &e.Root }),
	enumKey("phase", "phase", phases, func(e *Expectation) *string { return &e.Phase }),
	{name: "state",
		decode: func(d *dec, n *yaml.Node, e *Expectation, kind *expectationKind) bool {
			var k bool
			if kind.keyType("state") == "#row-state" {
				e.State, k = d.enum(n, "row state", rowStates)
			} else {
				e.State, k = d.enum(n, "card state", cardStates)
			}
			return k
		},
		set:    func(e *Expectation) bool { return e.State != "" },
		encode: func(e *Expectation) *yaml.Node { return word(e.State) }},
	enumKey("wait", "wait state", waitStates, func(e *Expectation) *string { return &e.Wait }),
	{name: "countdown",
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			var k bool
			e.Countdown, k = d.countdown(n)
			return k
		},
		set:    func(e *Expectation) bool { return e.Countdown != "" },
		encode: func(e *Expectation) *yaml.Node { return word(e.Countdown) }},
	enumKey("channel", "channel", channels, func(e *Expectation) *string { return &e.Channel }),
	boolKey("shown", func(e *Expectation) **bool { return &e.Shown }),
	boolKey("closed", func(e *Expectation) **bool { return &e.Closed }),
	boolKey("busy", func(e *Expectation) **bool { return &e.Busy }),
	textKey("hint", func(e *Expectation) *string { return &e.Hint }, false),
	boolKey("seat", func(e *Expectation) **bool { return &e.Seat }),
	boolKey("focus", func(e *Expectation) **bool { return &e.Focus }),
	enumKey("kind", "card kind", cardKinds, func(e *Expectation) *string { return &e.CardKind }),
	textKey("composer", func(e *Expectation) *string { return &e.Draft }, false),
	textKey("summary", func(e *Expectation) *string { return &e.Summary }, false),
	{name: "action",
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			a, k := d.text(n, "action")
			if a == "none" {
				a = ""
			}
			e.Action = &a
			return k
		},
		set: func(e *Expectation) bool { return e.Action != nil },
		encode: func(e *Expectation) *yaml.Node {
			if *e.Action == "" {
				return str("none")
			}
			return str(*e.Action)
		}},
	unlisted(textKey("message", func(e *Expectation) *string { return &e.Message }, false)),
	unlisted(textKey("outcome", func(e *Expectation) *string { return &e.Outcome }, false)),
	unlisted(boolKey("expanded", func(e *Expectation) **bool { return &e.Expanded })),
	{name: "lines",
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			var k bool
			e.Lines, k = d.texts(n, "lines")
			if e.Lines == nil {
				e.Lines = []string{}
			}
			return k
		},
		set: func(e *Expectation) bool { return e.Lines != nil },
		encode: func(e *Expectation) *yaml.Node {
			items := make([]*yaml.Node, len(e.Lines))
			for i, l := range e.Lines {
				items[i] = str(l)
			}
			return seq(false, items...)
		}},
	{name: "raw",
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			r, k := d.text(n, "raw")
			e.Raw = &r
			return k
		},
		set:    func(e *Expectation) bool { return e.Raw != nil },
		encode: func(e *Expectation) *yaml.Node { return str(*e.Raw) }},
	// call goes with questions (a view's call): written only with them, just before them.
	{name: "call", unlisted: true,
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			var k bool
			e.ViewCall, k = d.ident(n, "call")
			return k
		},
		set:    func(e *Expectation) bool { return e.ViewCall != "" && e.ViewQuestions != nil },
		encode: func(e *Expectation) *yaml.Node { return str(e.ViewCall) }},
	{name: "questions",
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			if n.Kind != yaml.SequenceNode {
				d.fail(n, "write the questions as a list: [{id: pkg, question: Which, options: [npm, bun]}]", "questions must be a list of questions, not %s", kindName(n))
				return false
			}
			var k bool
			e.ViewQuestions, _, k = d.questionsOrRaw(n, "questions", true)
			return k
		},
		set:      func(e *Expectation) bool { return e.ViewQuestions != nil },
		encode:   func(e *Expectation) *yaml.Node { return questionsNode(e.ViewQuestions) },
		unlisted: true},
	{name: "none", outcome: true,
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			e.None = d.isTrue(n, "none")
			return e.None
		},
		set:    func(e *Expectation) bool { return e.None },
		encode: func(e *Expectation) *yaml.Node { return boolNode(true) }},
	boolKey("connected", func(e *Expectation) **bool { return &e.Connected }),
	countKey("gen", func(e *Expectation) **int { return &e.Gen }),
}

// assertionKeyIndex finds an assertion key's entry by name.
var assertionKeyIndex = func() map[string]*assertionKey {
	out := make(map[string]*assertionKey, len(assertionKeys))
	for i := range assertionKeys {
		out[assertionKeys[i].name] = &assertionKeys[i]
	}
	return out
}()

// assertions lists the YAML keys set on an expectation besides at and its kind.
func (e *Expectation) assertions() []string {
	var out []string
	for i := range assertionKeys {
		if a := &assertionKeys[i]; a.set != nil && !a.unlisted && a.set(e) {
			out = append(out, a.name)
		}
	}
	return out
}

// writeAssertions adds e's assertions to m in the canonical order.
func (e *Expectation) writeAssertions(m *mapNode) {
	for i := range assertionKeys {
		if a := &assertionKeys[i]; a.set(e) {
			m.add(a.name, a.encode(e))
		}
	}
}

func textKey(name string, field func(*Expectation) *string, ident bool) assertionKey {
	return assertionKey{name: name,
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			var k bool
			if ident {
				*field(e), k = d.ident(n, name)
			} else {
				*field(e), k = d.text(n, name)
			}
			return k
		},
		set:    func(e *Expectation) bool { return *field(e) != "" },
		encode: func(e *Expectation) *yaml.Node { return str(*field(e)) }}
}

func enumKey(name, what string, values []string, field func(*Expectation) *string) assertionKey {
	return assertionKey{name: name,
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			var k bool
			*field(e), k = d.enum(n, what, values)
			return k
		},
		set:    func(e *Expectation) bool { return *field(e) != "" },
		encode: func(e *Expectation) *yaml.Node { return word(*field(e)) }}
}

func boolKey(name string, field func(*Expectation) **bool) assertionKey {
	return assertionKey{name: name,
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			b, k := d.boolean(n, name)
			*field(e) = &b
			return k
		},
		set:    func(e *Expectation) bool { return *field(e) != nil },
		encode: func(e *Expectation) *yaml.Node { return boolNode(**field(e)) }}
}

func durationKey(name string, field func(*Expectation) **Duration) assertionKey {
	return assertionKey{name: name,
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			t, k := d.duration(n, name, false)
			*field(e) = &t
			return k
		},
		set:    func(e *Expectation) bool { return *field(e) != nil },
		encode: func(e *Expectation) *yaml.Node { return dur(**field(e)) }}
}

func countKey(name string, field func(*Expectation) **int) assertionKey {
	return assertionKey{name: name,
		decode: func(d *dec, n *yaml.Node, e *Expectation, _ *expectationKind) bool {
			c, k := d.uinteger(n, name)
			ci := int(c)
			*field(e) = &ci
			return k
		},
		set:    func(e *Expectation) bool { return *field(e) != nil },
		encode: func(e *Expectation) *yaml.Node { return intNode(int64(**field(e))) }}
}

func outcomeKey(a assertionKey) assertionKey {
	a.outcome = true
	return a
}

func unlisted(a assertionKey) assertionKey {
	a.unlisted = true
	return a
}
