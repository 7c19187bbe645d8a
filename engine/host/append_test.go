package host

import (
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// wire.AppendEvent writes a Session event by hand: the log, the projection and the
// reservations see it as if the runtime had recorded it.
func TestAppendEvent(t *testing.T) {
	t.Run("PROJ-6 a malformed recorded result of a timed call removes its question", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(10, ask("c1", "30"))
		if v := r.view("s1"); v != "active=[c1:open] settled=[]" {
			t.Fatalf("view %s", v)
		}
		effs := r.do(20, wire.AppendEvent{Session: "s1", Event: session.Event{Data: session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Text: `{"pending":tru`}}})
		var got []string
		for _, e := range effs {
			if a, ok := e.(wire.Appended); ok {
				got = append(got, a.Event.String())
			}
		}
		s := r.session("s1")
		if len(got) != 1 || !strings.HasPrefix(got[0], "#"+strconv.Itoa(len(s.Log)-1)+" t=20 tool/result turn=1 step=1 call=c1 ok") {
			t.Fatalf("appended %q", got)
		}
		if v := r.view("s1"); v != "active=[] settled=[]" {
			t.Fatalf("view after the malformed result %s", v)
		}
	})
	t.Run("PROJ-4 a recorded pending PTC dispatch result enters the view as continued", func(t *testing.T) {
		r := timedRun(t, Config{})
		pending := `{"pending":true,"callId":"c2:ptc:1","message":"x"}`
		r.do(10, wire.AppendEvent{Session: "s1", Event: session.Event{Data: session.PTCDispatch{Root: "c2", Parent: "c2", SubCallID: "c2:ptc:1", Name: "ask_user_question", Arguments: askArgs(""), Text: pending}}})
		if v := r.view("s1"); v != "active=[c2:ptc:1:continued] settled=[]" {
			t.Fatalf("view %s", v)
		}
	})
	t.Run("noise on another Session leaves this one's view alone", func(t *testing.T) {
		r := timedRun(t, Config{})
		r.do(0, wire.OpenSession{Session: "s2"})
		r.do(10, ask("c1", "30"))
		r.do(20, wire.AppendEvent{Session: "s2", Event: session.Event{Data: session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Text: "noise"}}})
		if v := r.view("s1"); v != "active=[c1:open] settled=[]" {
			t.Fatalf("view %s", v)
		}
	})
	t.Run("a command that names a seq or time, no event, or no Session is refused", func(t *testing.T) {
		r := timedRun(t, Config{})
		for _, c := range []wire.AppendEvent{
			{Session: "s1", Event: session.Event{Seq: 3, Data: session.TurnStart{Turn: 9}}},
			{Session: "s1", Event: session.Event{Time: 5, Data: session.TurnStart{Turn: 9}}},
			{Session: "s1"},
			{Session: "nope", Event: session.Event{Data: session.TurnStart{Turn: 9}}},
		} {
			n := len(r.session("s1").Log)
			if _, err := r.try(30, c); err == nil {
				t.Errorf("%s accepted", c)
			}
			if len(r.session("s1").Log) != n {
				t.Errorf("%s appended", c)
			}
		}
	})
}
