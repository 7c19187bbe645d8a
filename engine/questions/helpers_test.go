package questions

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// testAgent is an agent instance: identity is the pointer.
type testAgent struct {
	id string
	n  int
}

func (a *testAgent) ID() string { return a.id }

// testRuntime is an in-memory agent registry with inboxes and projection views.
type testRuntime struct {
	live     map[string]*testAgent
	owner    map[string]string
	nextTurn map[string][]session.Message
	nextStep map[string][]session.Message
	views    map[string]wire.QuestionsView
	steerErr error
	steered  []session.Message
	ids      int
	instance int
}

func newRuntime() *testRuntime {
	return &testRuntime{
		live: map[string]*testAgent{}, owner: map[string]string{},
		nextTurn: map[string][]session.Message{}, nextStep: map[string][]session.Message{},
		views: map[string]wire.QuestionsView{},
	}
}

// enter creates a new live instance for id (the old one, if any, becomes stale).
func (r *testRuntime) enter(id, owner string) *testAgent {
	r.instance++
	a := &testAgent{id: id, n: r.instance}
	r.live[id] = a
	if owner != "" {
		r.owner[id] = owner
	} else {
		delete(r.owner, id)
	}
	return a
}

func (r *testRuntime) Live(a Agent) bool {
	ta, ok := a.(*testAgent)
	return ok && r.live[ta.id] == ta
}

func (r *testRuntime) Root(a Agent) bool {
	o, owned := r.owner[a.ID()]
	return !owned || r.live[o] == nil
}

func (r *testRuntime) Inbox(a Agent) ([]session.Message, []session.Message) {
	return r.nextTurn[a.ID()], r.nextStep[a.ID()]
}

func (r *testRuntime) Steer(a Agent, m session.Message) error {
	if r.steerErr != nil {
		return r.steerErr
	}
	r.steered = append(r.steered, m)
	r.nextStep[a.ID()] = append(r.nextStep[a.ID()], m)
	return nil
}

func (r *testRuntime) Questions(a Agent) wire.QuestionsView { return r.views[a.ID()] }

func (r *testRuntime) MessageID(a Agent) string {
	r.ids++
	return "m" + strconv.Itoa(r.ids)
}

// held is one dispatch a testListener holds.
type held struct {
	r      *Request
	next   func()
	settle func(Outcome)
}

// testListener holds every dispatch until the test settles it, and (like the gateway)
// rejects with the abort reason when the request's signal aborts.
type testListener struct {
	held      []*held
	watch     bool
	delegate  bool // call next at once
	cancelled int
}

func (l *testListener) Handle(r *Request, next func(), settle func(Outcome)) {
	if l.delegate {
		next()
		return
	}
	h := &held{r: r, next: next, settle: settle}
	l.held = append(l.held, h)
	if l.watch {
		if r.Signal.IsAborted() {
			l.cancelled++
			settle(Outcome{Err: errorOf(r.Signal.Reason())})
			return
		}
		// Like the gateway: the abort listener goes when the request settles.
		unsub := r.Signal.OnAbort(func(reason error) {
			l.cancelled++
			settle(Outcome{Err: errorOf(reason)})
		})
		h.settle = func(o Outcome) { unsub(); settle(o) }
		h.next = func() { unsub(); next() }
	}
}

func (l *testListener) last(t *testing.T) *held {
	t.Helper()
	if len(l.held) == 0 {
		t.Fatal("no dispatch reached the listener")
	}
	return l.held[len(l.held)-1]
}

// fixture is a service with one listener and a live root agent "s1".
type fixture struct {
	rt    *testRuntime
	l     *testListener
	svc   *Service
	agent *testAgent
	notes []wire.WaitNote
}

func newFixture() *fixture {
	f := &fixture{rt: newRuntime(), l: &testListener{watch: true}}
	f.svc = New(Config{Runtime: f.rt, Listeners: []Listener{f.l}, Note: func(n wire.WaitNote) { f.notes = append(f.notes, n) }})
	f.agent = f.rt.enter("s1", "")
	return f
}

// result captures one completion.
type result struct {
	got   bool
	count int
	r     Result
}

func (c *result) done(r Result) { c.got, c.r = true, r; c.count++ }

func (c *result) wantCode(t *testing.T, code string) {
	t.Helper()
	if !c.got {
		t.Fatalf("no result, want %s", code)
	}
	if !c.r.Err.HasCode(code) {
		t.Fatalf("result %+v (err %v), want code %s", c.r, c.r.Err, code)
	}
}

func (c *result) wantPending(t *testing.T, callID string) {
	t.Helper()
	if !c.got || c.r.Err != nil || !c.r.Pending || c.r.CallID != callID {
		t.Fatalf("result %+v err %v, want pending for %s", c.r, c.r.Err, callID)
	}
}

func (c *result) wantAnswer(t *testing.T, want string) {
	t.Helper()
	if !c.got || c.r.Err != nil || c.r.Pending || string(c.r.Answer) != want {
		t.Fatalf("result %+v err %v, want answer %s", c.r, c.r.Err, want)
	}
}

func q(id string) wire.Question { return wire.Question{ID: id, Question: "Q " + id + "?"} }

func qs(ids ...string) []wire.Question {
	out := make([]wire.Question, len(ids))
	for i, id := range ids {
		out[i] = q(id)
	}
	return out
}

const answerA = `{"answers":[{"id":"a","selected":["x"]}]}`

func raw(s string) json.RawMessage { return json.RawMessage(s) }

var errTurn = errors.New("turn cancelled by the user")

func noteKinds(ns []wire.WaitNote) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.String()
	}
	return out
}

func mustSignal() *signal.Signal { return signal.New() }
