package agent

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// harness is a runtime whose effects and notifications are recorded, with a runner that
// holds every call to the tool "hold" until the test completes it.
type harness struct {
	t       *testing.T
	rt      *Runtime
	effects []wire.Effect
	notes   []string
	held    map[string]*Call
}

func newHarness(t *testing.T, window int64) *harness {
	h := &harness{t: t, held: map[string]*Call{}}
	h.rt = New(Config{WriteWindow: window, Emit: func(e wire.Effect) { h.effects = append(h.effects, e) },
		Runner: RunnerFunc(func(c *Call) bool {
			if c.Name() != "hold" {
				return false
			}
			h.held[c.ID()] = c
			return true
		})})
	h.rt.Subscribe(Hooks{
		Loaded: func(id string, l *session.Log) { h.notes = append(h.notes, "loaded "+id) },
		Inserted: func(id, target string, m session.Message) {
			h.notes = append(h.notes, "inserted "+id+" "+target+" "+m.ID)
		},
		Claimed: func(id string, m session.Message, turn int) {
			h.notes = append(h.notes, "claimed "+id+" "+m.ID+" turn="+strconv.Itoa(turn))
		},
		Discarded: func(id string, m session.Message) { h.notes = append(h.notes, "discarded "+id+" "+m.ID) },
	})
	return h
}

func (h *harness) must(err error) {
	h.t.Helper()
	if err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) open(id string) *Agent {
	h.t.Helper()
	a, err := h.rt.Open(id, "")
	h.must(err)
	return a
}

func (h *harness) send(id, msgID, target string) {
	h.t.Helper()
	_, err := h.rt.Send(id, session.Message{ID: msgID, Source: session.Source{Kind: session.SourceUser}, Text: msgID}, target)
	h.must(err)
}

func (h *harness) call(id, callID, name, args string) *Call {
	h.t.Helper()
	c, err := h.rt.ToolCall(id, callID, name, args)
	h.must(err)
	return c
}

func (h *harness) complete(callID, text string) {
	h.t.Helper()
	c := h.held[callID]
	if c == nil {
		h.t.Fatalf("no held call %s", callID)
	}
	h.must(c.Complete(OK(text)))
}

// log returns Session id's events as canonical lines without seq and time.
func (h *harness) log(id string) []string {
	var out []string
	for _, e := range h.rt.Log(id).Events() {
		out = append(out, e.Data.String())
	}
	return out
}

// take returns the effects since the last take as lines.
func (h *harness) take() []string {
	var out []string
	for _, e := range h.effects {
		out = append(out, e.String())
	}
	h.effects = h.effects[:0]
	return out
}

func expectLines(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\n got:\n  %s\n want:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
