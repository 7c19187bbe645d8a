package host

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// run drives one host and keeps every effect.
type run struct {
	t    testing.TB
	h    *Host
	last []wire.Effect
	all  []wire.Effect
}

func newRun(t testing.TB, cfg Config) *run {
	t.Helper()
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &run{t: t, h: h}
}

// try applies cmd and records a copy of its effects.
func (r *run) try(now int64, cmd wire.Command) ([]wire.Effect, error) {
	effs, err := r.h.Apply(wire.Time(now), cmd)
	r.last = append([]wire.Effect(nil), effs...)
	r.all = append(r.all, r.last...)
	r.checkFold()
	return r.last, err
}

// do applies cmd, which must succeed.
func (r *run) do(now int64, cmd wire.Command) []wire.Effect {
	r.t.Helper()
	effs, err := r.try(now, cmd)
	if err != nil {
		r.t.Fatalf("%d %s: %v", now, cmd, err)
	}
	return effs
}

// checkFold is PROJ-12 at every step: every Session's view is a fresh fold of its log.
func (r *run) checkFold() {
	r.t.Helper()
	for _, s := range r.h.State().Sessions {
		if want := questions.Fold(s.Log, s.Inherited); !reflect.DeepEqual(s.Questions, want) {
			r.t.Fatalf("session %s: view %s, fresh fold %s", s.ID, s.Questions, want)
		}
	}
}

func (r *run) session(id string) wire.SessionState {
	r.t.Helper()
	s, ok := r.h.State().Session(id)
	if !ok {
		r.t.Fatalf("no session %s", id)
	}
	return s
}

func (r *run) view(id string) string { return r.session(id).Questions.String() }

// timed opens s1 with a running turn whose step 1 is open, the timed header recorded, and
// client A connected.
func timedRun(t testing.TB, cfg Config) *run {
	t.Helper()
	if cfg.ToolMode == "" {
		cfg.ToolMode = questions.ModeTimed
	}
	r := newRun(t, cfg)
	r.do(0, wire.OpenSession{Session: "s1"})
	r.do(0, wire.Connect{Client: "A"})
	r.do(0, wire.Send{Session: "s1", Target: session.NextTurn, Text: "go"})
	r.do(0, wire.Header{Session: "s1"})
	return r
}

func askArgs(timeout string) string {
	s := `{"questions":[{"id":"a","question":"A?","options":[{"label":"x"},{"label":"y"}]}]`
	if timeout != "" {
		s += `,"timeout":` + timeout
	}
	return s + "}"
}

func ask(callID, timeout string) wire.ToolCall {
	return wire.ToolCall{Session: "s1", CallID: callID, Name: questions.ToolName, Args: askArgs(timeout)}
}

func attach(client string, gen int, stream, callID string) wire.StreamOpen {
	return wire.StreamOpen{Client: client, Gen: gen, StreamID: stream, Endpoint: wire.EndpointAttachWait,
		Args: json.RawMessage(`{"agentId":"s1","callId":"` + callID + `"}`)}
}

const batchA = `{"answers":[{"id":"a","selected":["x"]}]}`

func answerCall(rpc, callID, batch string) wire.Call {
	return wire.Call{Client: "A", Gen: 1, RPCID: rpc, Endpoint: wire.EndpointAnswer,
		Args: json.RawMessage(`{"agentId":"s1","callId":"` + callID + `","answer":` + batch + `}`)}
}

// frames returns the frames sent to client (any generation), in order.
func frames(effs []wire.Effect, client string) []wire.Frame {
	var out []wire.Frame
	for _, e := range effs {
		if f, ok := e.(wire.SendFrame); ok && f.Client == client {
			out = append(out, f.Frame)
		}
	}
	return out
}

func streamFrames(effs []wire.Effect, stream string) []string {
	var out []string
	for _, e := range effs {
		f, ok := e.(wire.SendFrame)
		if !ok {
			continue
		}
		switch fr := f.Frame.(type) {
		case wire.StreamItem:
			if fr.StreamID == stream {
				out = append(out, "item "+string(fr.Value))
			}
		case wire.StreamEnd:
			if fr.StreamID == stream {
				out = append(out, "end")
			}
		case wire.StreamError:
			if fr.StreamID == stream {
				out = append(out, "error "+fr.Code)
			}
		}
	}
	return out
}

func reply(effs []wire.Effect, rpc string) (wire.Envelope, int) {
	for i, e := range effs {
		if rp, ok := e.(wire.Reply); ok && rp.RPCID == rpc {
			return rp.Envelope, i
		}
	}
	return wire.Envelope{}, -1
}

func waitKinds(effs []wire.Effect) []string {
	var out []string
	for _, e := range effs {
		if n, ok := e.(wire.WaitNote); ok {
			out = append(out, n.Kind)
		}
	}
	return out
}

// result returns the tool/result of callID appended among effs.
func result(effs []wire.Effect, callID string) (session.ToolResult, int64, bool) {
	for _, e := range effs {
		if a, ok := e.(wire.Appended); ok {
			if d, ok := a.Event.Data.(session.ToolResult); ok && d.CallID == callID {
				return d, a.Event.Time, true
			}
		}
	}
	return session.ToolResult{}, 0, false
}

func directResult(effs []wire.Effect, id string) (wire.DirectResult, bool) {
	for _, e := range effs {
		if d, ok := e.(wire.DirectResult); ok && d.ID == id {
			return d, true
		}
	}
	return wire.DirectResult{}, false
}

// eventID is the event id of the last waterfall frame sent to client.
func eventID(t testing.TB, effs []wire.Effect, client string) string {
	t.Helper()
	id := ""
	for _, f := range frames(effs, client) {
		if w, ok := f.(wire.Waterfall); ok {
			id = w.EventID
		}
	}
	if id == "" {
		t.Fatalf("no waterfall for %s", client)
	}
	return id
}

func logHas(s wire.SessionState, substr string) bool {
	for _, e := range s.Log {
		if strings.Contains(e.String(), substr) {
			return true
		}
	}
	return false
}
