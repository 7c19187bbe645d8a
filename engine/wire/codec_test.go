package wire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/twosettle/twosettle/engine/session"
)

// kindOf is the discriminator a sample's line starts with.
func kindOf(line string) string {
	for _, p := range []string{`{"kind":"`, `"type":"`} {
		if i := strings.Index(line, p); i == 0 || i > 0 && p[0] != '{' {
			rest := line[i+len(p):]
			return rest[:strings.IndexByte(rest, '"')]
		}
	}
	return ""
}

func TestConformCommandJSONIsExactAndRoundTrips(t *testing.T) {
	for _, s := range commandSamples {
		t.Run(s.name, func(t *testing.T) {
			got, err := AppendCommandJSON(nil, s.c)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != s.json {
				t.Fatalf("encode\n got %s\nwant %s", got, s.json)
			}
			back, err := DecodeCommand([]byte(s.json))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(s.c, back); d != "" {
				t.Fatalf("decode (-want +got):\n%s", d)
			}
			if back.String() != s.c.String() {
				t.Fatalf("String %q, want %q", back.String(), s.c.String())
			}
		})
	}
}

func TestConformEffectJSONIsExactAndRoundTrips(t *testing.T) {
	for _, s := range effectSamples {
		t.Run(s.name, func(t *testing.T) {
			got, err := AppendEffectJSON(nil, s.e)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != s.json {
				t.Fatalf("encode\n got %s\nwant %s", got, s.json)
			}
			back, err := DecodeEffect([]byte(s.json))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(s.e, back); d != "" {
				t.Fatalf("decode (-want +got):\n%s", d)
			}
			if back.String() != s.e.String() {
				t.Fatalf("String %q, want %q", back.String(), s.e.String())
			}
		})
	}
}

func TestConformEventJSONIsExactAndRoundTrips(t *testing.T) {
	for _, s := range eventSamples {
		t.Run(s.name, func(t *testing.T) {
			got, err := AppendEventJSON(nil, s.e)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != s.json {
				t.Fatalf("encode\n got %s\nwant %s", got, s.json)
			}
			back, err := DecodeEvent([]byte(s.json))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(s.e, back); d != "" {
				t.Fatalf("decode (-want +got):\n%s", d)
			}
			if back.String() != s.e.String() {
				t.Fatalf("String %q, want %q", back.String(), s.e.String())
			}
		})
	}
}

func TestConformHostStateJSONIsExactAndRoundTrips(t *testing.T) {
	got, err := AppendHostStateJSON(nil, hostStateSample)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != hostStateSampleJSON {
		t.Fatalf("encode\n got %s\nwant %s", got, hostStateSampleJSON)
	}
	back, err := DecodeHostState(got)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(hostStateSample, back); d != "" {
		t.Fatalf("decode (-want +got):\n%s", d)
	}
	empty, _ := AppendHostStateJSON(nil, HostState{})
	if string(empty) != `{"sessions":[],"waits":[],"reservations":[],"clients":[],"pending":[]}` {
		t.Fatalf("empty state %s", empty)
	}
	for _, in := range []string{`{}`, string(empty)} {
		if s, err := DecodeHostState([]byte(in)); err != nil || s.Sessions != nil || s.Pending != nil {
			t.Fatalf("decode %s: %v %#v", in, err, s)
		}
	}
}

func TestConformHostConfigJSONIsExactAndRoundTrips(t *testing.T) {
	for _, s := range hostConfigSamples {
		if got := AppendHostConfigJSON(nil, s.c); string(got) != s.json {
			t.Errorf("encode %v: got %s, want %s", s.c, got, s.json)
		}
		back, err := DecodeHostConfig([]byte(s.json))
		if err != nil || back != s.c {
			t.Errorf("decode %s: %v %+v", s.json, err, back)
		}
	}
}

// TestConformSamplesCoverEveryKind keeps the sample tables complete: every kind the
// codec knows has a sample, so the table tests, the fuzz seeds and the schema test see
// each one.
func TestConformSamplesCoverEveryKind(t *testing.T) {
	check := func(what string, known []string, lines []string) {
		seen := map[string]bool{}
		for _, l := range lines {
			seen[kindOf(l)] = true
		}
		for _, k := range known {
			if !seen[k] {
				t.Errorf("no %s sample of kind %q", what, k)
			}
		}
	}
	var cmds, effs, frames, events []string
	for _, s := range commandSamples {
		cmds = append(cmds, s.json)
	}
	for _, s := range effectSamples {
		effs = append(effs, s.json)
		if i := strings.Index(s.json, `"frame":`); i >= 0 {
			frames = append(frames, s.json[i+len(`"frame":`):])
		}
	}
	for _, s := range eventSamples {
		events = append(events, s.json)
	}
	check("command", commandKinds, cmds)
	check("effect", effectKinds, effs)
	check("frame", frameKinds, frames)
	check("event", eventTypes, events)
	for k := range waitKinds {
		found := false
		for _, s := range effectSamples {
			if w, ok := s.e.(WaitNote); ok && w.Kind == k {
				found = true
			}
		}
		if !found {
			t.Errorf("no wait-note sample of kind %q", k)
		}
	}
}

func TestConformPayloadsKeepTheirBytes(t *testing.T) {
	cases := []struct {
		payload string
		key     string // "args" (embedded) or "argsRaw"
	}{
		{`{"a":1}`, "args"},
		{`{"a": [1, 2]}`, "args"},
		{"{\t\"a\":1}", "args"},
		{`null`, "args"},
		{`"text"`, "args"},
		{`12.5e3`, "args"},
		{` 1`, "argsRaw"},
		{`1 `, "argsRaw"},
		{"{\n}", "argsRaw"},
		{"{\r\n}", "argsRaw"},
		{`{"a":`, "argsRaw"},
		{``, "argsRaw"},
		{`nope`, "argsRaw"},
		{strings.Repeat("[", maxPayloadDepth) + strings.Repeat("]", maxPayloadDepth), "args"},
		{strings.Repeat("[", maxPayloadDepth+1) + strings.Repeat("]", maxPayloadDepth+1), "argsRaw"},
		{`"a\"[[["`, "args"},
		{"\"é\u2028\"", "args"},
	}
	for _, c := range cases {
		call := Call{Client: "a", Gen: 1, RPCID: "r", Endpoint: "e", Args: raw(c.payload)}
		line, err := AppendCommandJSON(nil, call)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(line), `"`+c.key+`":`) {
			t.Errorf("payload %q: want key %s in %s", c.payload, c.key, line)
		}
		if strings.ContainsAny(string(line), "\n\r") {
			t.Errorf("payload %q: the line has a newline: %q", c.payload, line)
		}
		back, err := DecodeCommand(line)
		if err != nil {
			t.Fatalf("payload %q: %v", c.payload, err)
		}
		if got := string(back.(Call).Args); got != c.payload {
			t.Errorf("payload %q came back as %q", c.payload, got)
		}
	}
	t.Run("invalid UTF-8 is normalised once", func(t *testing.T) {
		call := Call{Client: "a", Gen: 1, RPCID: "r", Endpoint: "e", Args: raw("\"\xff\"")}
		line, _ := AppendCommandJSON(nil, call)
		if want := "\"args\":\"\ufffd\"}"; !strings.HasSuffix(string(line), want) {
			t.Fatalf("line %s, want it to end with %s", line, want)
		}
		back, _ := DecodeCommand(line)
		again, _ := AppendCommandJSON(nil, back)
		if string(again) != string(line) {
			t.Fatalf("second encoding %s differs from %s", again, line)
		}
	})
	t.Run("nil and empty payloads stay distinct", func(t *testing.T) {
		for _, o := range []Outcome{{Kind: OutcomeResult}, {Kind: OutcomeResult, Value: raw("")}} {
			line, err := AppendCommandJSON(nil, EventResult{Client: "a", Gen: 1, RPCID: "r", EventID: "e", Outcome: o})
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeCommand(line)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(o, back.(EventResult).Outcome); d != "" {
				t.Fatalf("%s: %s", line, d)
			}
		}
	})
}

// TestConformDecodersNormaliseOptionalZeros: an implementation that writes every key, or
// pretty-prints, is read as the canonical line says.
func TestConformDecodersNormaliseOptionalZeros(t *testing.T) {
	in := `{ "kind" : "open-session", "session":"s1", "owner":"", "forkThrough": 0 }`
	c, err := DecodeCommand([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if c != (OpenSession{Session: "s1"}) {
		t.Fatalf("%#v", c)
	}
	in = "{\n  \"kind\": \"end-step\",\n  \"session\": \"s1\",\n  \"final\": false\n}\n"
	if c, err = DecodeCommand([]byte(in)); err != nil || c != (EndStep{Session: "s1"}) {
		t.Fatalf("%v %#v", err, c)
	}
	ev, err := DecodeEvent([]byte(`{"seq":1,"time":2,"type":"tool/result","turn":1,"step":1,"callId":"c","isError":false,"text":"x","noText":false}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(session.Event{Seq: 1, Time: 2, Data: session.ToolResult{Turn: 1, Step: 1, CallID: "c", Text: "x"}}, ev); d != "" {
		t.Fatal(d)
	}
}

func TestConformEncodersRefuseWhatJSONCannotHold(t *testing.T) {
	cases := []struct {
		name string
		enc  func() ([]byte, error)
		want string
	}{
		{"nil command", func() ([]byte, error) { return AppendCommandJSON([]byte("x"), nil) }, "command: no command"},
		{"next with a value", func() ([]byte, error) {
			return AppendCommandJSON(nil, EventResult{Outcome: Outcome{Kind: OutcomeNext, Value: raw("1")}})
		}, "command.outcome: a next outcome carries no value or error"},
		{"rejected without error", func() ([]byte, error) {
			return AppendCommandJSON(nil, EventResult{Outcome: Outcome{Kind: OutcomeRejected}})
		}, "command.outcome.error: a rejected outcome needs its error"},
		{"unknown outcome", func() ([]byte, error) { return AppendCommandJSON(nil, EventResult{}) }, `command.outcome.kind: unknown outcome kind ""`},
		{"nil effect", func() ([]byte, error) { return AppendEffectJSON(nil, nil) }, "effect: no effect"},
		{"nil frame", func() ([]byte, error) { return AppendEffectJSON(nil, SendFrame{}) }, "effect.frame: no frame"},
		{"bad event in a frame", func() ([]byte, error) {
			return AppendEffectJSON(nil, SendFrame{Frame: SessionUpdate{Events: []session.Event{eventSamples[0].e, {Seq: 1}}}})
		}, "effect.frame.events[1].data: no event data"},
		{"foreign event data", func() ([]byte, error) { return AppendEventJSON(nil, session.Event{Data: foreignData{}}) }, "event.data: unsupported event data type wire.foreignData"},
		{"bad log event", func() ([]byte, error) {
			return AppendHostStateJSON(nil, HostState{Sessions: []SessionState{{}, {Log: []session.Event{{}}}}})
		}, "state.sessions[1].log[0].data: no event data"},
		{"ok envelope with an error", func() ([]byte, error) {
			return AppendEffectJSON(nil, Reply{Envelope: Envelope{OK: true, Error: &RemoteError{}}})
		}, "effect.envelope.error: a success envelope carries no error"},
		{"failure envelope with a value", func() ([]byte, error) {
			return AppendEffectJSON(nil, Reply{Envelope: Envelope{Value: raw("1")}})
		}, "effect.envelope.value: a failure envelope carries no value"},
		{"unknown wait kind", func() ([]byte, error) { return AppendEffectJSON(nil, WaitNote{Kind: "x"}) }, `effect.wait: unknown wait-note kind "x"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := c.enc()
			if err == nil || err.Error() != c.want {
				t.Fatalf("error %v, want %s", err, c.want)
			}
			if len(b) > 1 {
				t.Fatalf("returned %q, want the buffer unchanged", b)
			}
		})
	}
	t.Run("a failure envelope without its error is MarshalJSON's empty one", func(t *testing.T) {
		line, err := AppendEffectJSON(nil, Reply{Client: "a", Gen: 1, RPCID: "r"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(string(line), `"envelope":{"ok":false,"error":{"code":"","message":""}}}`) {
			t.Fatal(string(line))
		}
		back, _ := DecodeEffect(line)
		if back.String() != (Reply{Client: "a", Gen: 1, RPCID: "r"}).String() {
			t.Fatal(back.String())
		}
	})
}

type foreignData struct{}

func (foreignData) Type() string   { return "x" }
func (foreignData) String() string { return "x" }

// BenchmarkConformEncodeEffects is the encoder's cost on the effects of a busy Apply.
func BenchmarkConformEncodeEffects(b *testing.B) {
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range effectSamples {
			buf, _ = AppendEffectJSON(buf[:0], s.e)
		}
	}
}

// BenchmarkConformDecodeEffects is the decoder's cost on the same lines.
func BenchmarkConformDecodeEffects(b *testing.B) {
	lines := make([][]byte, len(effectSamples))
	for i, s := range effectSamples {
		lines[i] = []byte(s.json)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			if _, err := DecodeEffect(l); err != nil {
				b.Fatal(err)
			}
		}
	}
}
