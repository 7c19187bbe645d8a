package wire

import (
	"math"
	"testing"
)

func TestConformDecodersAreStrictAndNameThePath(t *testing.T) {
	update := func(events string) string {
		return `{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"session-update","session":"s1","from":0,"events":[` + events + `],"questions":{},"inbox":{}}}`
	}
	ev := `{"seq":0,"time":0,"type":"turn/start","turn":1}`
	cases := []struct {
		name   string
		decode func([]byte) error
		in     string
		want   string
	}{
		// commands
		{"unknown kind", cmd, `{"kind":"jump","session":"s1"}`, `command.kind: unknown command kind "jump"`},
		{"missing kind", cmd, `{"session":"s1"}`, `command: missing key "kind"`},
		{"kind of wrong type", cmd, `{"kind":3}`, `command.kind: want a string, got number`},
		{"unknown key", cmd, `{"kind":"close-session","session":"s1","force":true}`, `command: unknown key "force" in close-session`},
		{"a typo is an unknown key first", cmd, `{"kind":"close-session","sesion":"s1"}`, `command: unknown key "sesion" in close-session`},
		{"missing key", cmd, `{"kind":"connect"}`, `command: missing key "client" of connect`},
		{"wrong type", cmd, `{"kind":"connect","client":7}`, `command.client: want a string, got number`},
		{"null", cmd, `{"kind":"connect","client":null}`, `command.client: want a string, got null`},
		{"integer as string", cmd, `{"kind":"restart","cutAfter":"1"}`, `command.cutAfter: want an integer, got string`},
		{"fraction", cmd, `{"kind":"restart","cutAfter":1.5}`, `command.cutAfter: want an integer, got 1.5`},
		{"exponent", cmd, `{"kind":"restart","cutAfter":1e3}`, `command.cutAfter: want an integer, got 1e3`},
		{"integral fraction", cmd, `{"kind":"restart","cutAfter":1.0}`, `command.cutAfter: want an integer, got 1.0`},
		{"out of range", cmd, `{"kind":"restart","cutAfter":9223372036854775808}`, `command.cutAfter: integer 9223372036854775808 out of range`},
		{"flag of wrong type", cmd, `{"kind":"end-step","session":"s1","final":"yes"}`, `command.final: want a boolean, got string`},
		{"duplicate key", cmd, `{"kind":"connect","client":"a","client":"b"}`, `command: duplicate key "client"`},
		{"payload and its raw form", cmd, `{"kind":"call","client":"a","gen":1,"rpcId":"r","endpoint":"e","args":{},"argsRaw":"{}"}`, `command: both "args" and "argsRaw"`},
		{"raw payload not a string", cmd, `{"kind":"call","client":"a","gen":1,"rpcId":"r","endpoint":"e","argsRaw":{}}`, `command.argsRaw: want a string, got object`},
		{"fork without through", cmd, `{"kind":"open-session","session":"s2","forkOf":"s1"}`, `command: missing key "forkThrough" of open-session`},
		{"source of wrong type", cmd, `{"kind":"send","session":"s1","target":"next-turn","text":"","source":"user"}`, `command.source: want an object, got string`},
		{"unknown key in a source", cmd, `{"kind":"send","session":"s1","target":"next-turn","text":"","source":{"kind":"user","id":"x"}}`, `command.source: unknown key "id" in source`},
		{"unknown outcome", cmd, `{"kind":"event-result","client":"a","gen":1,"rpcId":"r","eventId":"e","outcome":{"kind":"maybe"}}`, `command.outcome.kind: unknown outcome kind "maybe"`},
		{"value on next", cmd, `{"kind":"event-result","client":"a","gen":1,"rpcId":"r","eventId":"e","outcome":{"kind":"next","value":1}}`, `command.outcome: unknown key "value" in next outcome`},
		{"rejected without error", cmd, `{"kind":"event-result","client":"a","gen":1,"rpcId":"r","eventId":"e","outcome":{"kind":"rejected"}}`, `command.outcome: missing key "error" of rejected outcome`},
		{"error without message", cmd, `{"kind":"event-result","client":"a","gen":1,"rpcId":"r","eventId":"e","outcome":{"kind":"rejected","error":{"name":"Error"}}}`, `command.outcome.error: missing key "message" of error`},
		{"invalid JSON", cmd, `{"kind":"tick",}`, `command: invalid JSON: invalid character '}' looking for beginning of object key string (at byte 16)`},
		{"two values", cmd, `{"kind":"tick"} {"kind":"tick"}`, `command: invalid JSON: invalid character '{' after top-level value (at byte 17)`},
		{"not an object", cmd, `["tick"]`, `command: want an object, got array`},
		{"empty input", cmd, ``, `command: invalid JSON: unexpected end of JSON input (at byte 0)`},
		// effects, frames, events
		{"unknown effect", eff, `{"kind":"explode"}`, `effect.kind: unknown effect kind "explode"`},
		{"unknown frame", eff, `{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"hello"}}`, `effect.frame.kind: unknown frame kind "hello"`},
		{"frame missing", eff, `{"kind":"send-frame","client":"a","gen":1}`, `effect: missing key "frame" of send-frame`},
		{"unknown event type in a frame", eff, update(ev + "," + ev + `,{"seq":2,"time":0,"type":"x"}`), `effect.frame.events[2].type: unknown event type "x"`},
		{"bad event in a frame", eff, update(`{"seq":0,"time":0,"type":"turn/start","turn":true}`), `effect.frame.events[0].turn: want an integer, got boolean`},
		{"event not an object", eff, update(ev + `,3`), `effect.frame.events[1]: want an object, got number`},
		{"events not an array", eff, `{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"session-update","session":"s1","from":0,"events":{},"questions":{},"inbox":{}}}`, `effect.frame.events: want an array, got object`},
		{"bad question", eff, `{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"session-update","session":"s1","from":0,"questions":{"active":[{"callId":"c1","questions":[{"id":"q"}],"state":"open"}]},"inbox":{}}}`,
			`effect.frame.questions.active[0].questions[0]: missing key "question" of question`},
		{"bad selected", eff, `{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"session-update","session":"s1","from":0,"questions":{"settled":[{"callId":"c1","answers":[{"id":"q","selected":[1]}]}]},"inbox":{}}}`,
			`effect.frame.questions.settled[0].answers[0].selected[0]: want a string, got number`},
		// An inbox entry is read as the peer reads it (codec_inbox.go); its lists stay strict.
		{"inbox list not an array", eff, `{"kind":"send-frame","client":"a","gen":1,"frame":{"kind":"session-update","session":"s1","from":0,"questions":{},"inbox":{"next-step":{"id":"m1"}}}}`,
			`effect.frame.inbox.next-step: want an array, got object`},
		{"unknown wait kind", eff, `{"kind":"wait-note","session":"s1","callId":"c1","wait":"paused"}`, `effect.wait: unknown wait-note kind "paused"`},
		{"wait kind missing its key", eff, `{"kind":"wait-note","session":"s1","callId":"c1","wait":"claimed","remaining":5}`, `effect: missing key "claims" of wait-note claimed`},
		{"envelope without ok", eff, `{"kind":"reply","client":"a","gen":1,"rpcId":"r","envelope":{"value":1}}`, `effect.envelope: missing key "ok" of envelope`},
		{"failure envelope with a value", eff, `{"kind":"reply","client":"a","gen":1,"rpcId":"r","envelope":{"ok":false,"value":1,"error":{"code":"c","message":"m"}}}`, `effect.envelope: unknown key "value" in envelope`},
		{"failure envelope without error", eff, `{"kind":"reply","client":"a","gen":1,"rpcId":"r","envelope":{"ok":false}}`, `effect.envelope: missing key "error" of envelope`},
		{"event time out of range", evt, `{"seq":0,"time":-9223372036854775809,"type":"turn/start","turn":1}`, `event.time: integer -9223372036854775809 out of range`},
		{"event missing seq", evt, `{"time":0,"type":"turn/start","turn":1}`, `event: missing key "seq" of turn/start`},
		{"unknown key in a turn end reason", evt, `{"seq":0,"time":0,"type":"turn/end","turn":1,"reason":{"kind":"completed","why":"x"}}`, `event.reason: unknown key "why" in turn/end reason`},
		// host state and config
		{"bad wait state", state, `{"waits":[{"session":"s1","callId":"c1","deadline":1,"claims":0}]}`, `state.waits[0]: missing key "timerAt" of wait state`},
		{"bad log", state, `{"sessions":[{"id":"s1","inherited":0,"persisted":0,"log":[{"seq":0,"time":0,"type":"turn/start"}],"questions":{},"inbox":{},"phase":"idle"}]}`,
			`state.sessions[0].log[0]: missing key "turn" of turn/start`},
		{"unknown key in a state", state, `{"sessions":[],"timers":[]}`, `state: unknown key "timers" in host state`},
		{"unknown config key", config, `{"toolMode":"timed","mutant":"x"}`, `config: unknown key "mutant" in host config`},
		{"config of wrong type", config, `{"defaultTimeoutSec":"5"}`, `config.defaultTimeoutSec: want an integer, got string`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.decode([]byte(c.in))
			if err == nil {
				t.Fatalf("decoded %s", c.in)
			}
			if err.Error() != c.want {
				t.Fatalf("error\n got %s\nwant %s", err, c.want)
			}
		})
	}
}

func cmd(b []byte) error    { _, err := DecodeCommand(b); return err }
func eff(b []byte) error    { _, err := DecodeEffect(b); return err }
func evt(b []byte) error    { _, err := DecodeEvent(b); return err }
func state(b []byte) error  { _, err := DecodeHostState(b); return err }
func config(b []byte) error { _, err := DecodeHostConfig(b); return err }

// TestConformDecodersAcceptEveryValidInteger: the int range is the Go type's.
func TestConformDecodersAcceptEveryValidInteger(t *testing.T) {
	for in, want := range map[string]int{"0": 0, "-0": 0, "-1": -1, "9223372036854775807": math.MaxInt64, "-9223372036854775808": math.MinInt64} {
		c, err := DecodeCommand([]byte(`{"kind":"restart","cutAfter":` + in + `}`))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := c.(Restart).CutAfter; got != want {
			t.Fatalf("%s decoded as %d", in, got)
		}
	}
}
