package oracle_test

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/client"
	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// Base traces: real runs of the reference host and clients in the simulator. Every one must
// pass the oracle; the invariant tests mutate a copy to break one rule.

var lat = sim.Latency{Min: 5, Max: 20}

func askArgs(secs string) string {
	to := ""
	if secs != "" {
		to = `,"timeout":` + secs
	}
	return `{"questions":[{"id":"a","question":"A?","options":[{"label":"x"},{"label":"y"}]}]` + to + `}`
}

func runBase(t testing.TB, hc host.Config, clients []string, steps []sim.Step) *trace.Trace {
	t.Helper()
	h, err := host.New(hc)
	if err != nil {
		t.Fatal(err)
	}
	cl := map[string]wire.ClientPort{}
	var cc []sim.ClientConfig
	for _, n := range clients {
		cl[n] = client.New(client.Config{Name: n})
		cc = append(cc, sim.ClientConfig{Name: n, Mux: lat, HTTP: lat, ReconnectMs: 100})
	}
	tr, err := sim.Simulate(sim.Config{Seed: 7, Model: sim.ModelConfig{AutoEndMs: -1}, Clients: cc, Steps: steps}, h, cl)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func opening() []sim.Step {
	return []sim.Step{
		{At: 0, Host: wire.OpenSession{Session: "s1"}},
		{At: 40, Host: wire.Header{Session: "s1"}},
		{At: 50, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "hi"}},
	}
}

func user(at int64, c, kind, card string) sim.Step {
	a := &wire.UserAction{Kind: kind, Card: card}
	if kind == wire.ActChoose {
		a.Question, a.Label = "a", "x"
	}
	return sim.Step{At: wire.Time(at), Client: c, User: a}
}

// baseTimed: two clients; q1 answered by c1 (c2 is cancelled), q2 expires on the clients'
// countdowns and becomes pending, c2 answers it late, the reply is admitted.
func baseTimed(t testing.TB) *trace.Trace {
	return runBase(t, host.Config{ToolMode: "timed", WriteWindowMs: -1}, []string{"c1", "c2"}, append(opening(),
		sim.Step{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask_user_question", Args: askArgs("5")}},
		user(500, "c1", wire.ActChoose, "q1"),
		user(600, "c1", wire.ActSubmit, "q1"),
		sim.Step{At: 1000, Host: wire.EndStep{Session: "s1"}},
		sim.Step{At: 1100, Host: wire.ToolCall{Session: "s1", CallID: "q2", Name: "ask_user_question", Args: askArgs("3")}},
		sim.Step{At: 1200, Host: wire.EndStep{Session: "s1"}},
		user(8000, "c2", wire.ActReopen, "q2"),
		user(8100, "c2", wire.ActChoose, "q2"),
		user(8200, "c2", wire.ActSubmit, "q2"),
		sim.Step{At: 9000, Host: wire.EndStep{Session: "s1", Final: true}},
		sim.Step{At: 9100, Host: wire.EndStep{Session: "s1", Final: true}},
	))
}

// baseUnattended: no client; q1 expires on the host's timer and becomes pending.
func baseUnattended(t testing.TB) *trace.Trace {
	return runBase(t, host.Config{ToolMode: "timed", WriteWindowMs: -1}, nil, append(opening(),
		sim.Step{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask_user_question", Args: askArgs("2")}},
		sim.Step{At: 200, Host: wire.EndStep{Session: "s1", Final: true}},
		sim.Step{At: 5000, Host: wire.Send{Session: "s1", Target: "next-turn", Text: "again"}},
		sim.Step{At: 5100, Host: wire.EndStep{Session: "s1", Final: true}},
	))
}

// baseRestart: a crash cuts q1 off; repair makes it continued; c1 answers it late and the
// reply is admitted in a new turn.
func baseRestart(t testing.TB) *trace.Trace {
	return runBase(t, host.Config{ToolMode: "timed", WriteWindowMs: -1}, []string{"c1"}, append(opening(),
		sim.Step{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask_user_question", Args: askArgs("60")}},
		sim.Step{At: 300, Fault: &sim.Fault{Kind: sim.FaultCrash}},
		user(2000, "c1", wire.ActReopen, "q1"),
		user(2100, "c1", wire.ActChoose, "q1"),
		user(2200, "c1", wire.ActSubmit, "q1"),
		sim.Step{At: 2500, Host: wire.EndStep{Session: "s1", Final: true}},
	))
}

// baseReconnect: c1's link drops while q1 waits (blocking, -1); it redials and gets the
// request replayed, then answers it.
func baseReconnect(t testing.TB) *trace.Trace {
	return runBase(t, host.Config{ToolMode: "timed", WriteWindowMs: -1}, []string{"c1"}, append(opening(),
		sim.Step{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask_user_question", Args: askArgs("-1")}},
		sim.Step{At: 300, Net: &sim.NetAction{Kind: sim.NetDisconnect, Client: "c1"}},
		user(1000, "c1", wire.ActChoose, "q1"),
		user(1100, "c1", wire.ActSubmit, "q1"),
		sim.Step{At: 1500, Host: wire.EndStep{Session: "s1", Final: true}},
	))
}

// baseLegacy: the legacy tool; c1 answers.
func baseLegacy(t testing.TB) *trace.Trace {
	return runBase(t, host.Config{ToolMode: "legacy", WriteWindowMs: -1}, []string{"c1"}, append(opening(),
		sim.Step{At: 100, Host: wire.ToolCall{Session: "s1", CallID: "q1", Name: "ask_user_question", Args: askArgs("")}},
		user(500, "c1", wire.ActChoose, ""),
		user(600, "c1", wire.ActSubmit, ""),
		sim.Step{At: 1500, Host: wire.EndStep{Session: "s1", Final: true}},
	))
}

var bases = map[string]func(testing.TB) *trace.Trace{
	"timed": baseTimed, "unattended": baseUnattended, "restart": baseRestart, "reconnect": baseReconnect, "legacy": baseLegacy,
}

func TestBasesPass(t *testing.T) {
	for name, b := range bases {
		tr := b(t)
		if v := oracle.Check(tr, oracle.Options{DefaultTimeoutMs: 120_000}); !v.OK() {
			t.Errorf("%s: %s\n%s", name, v, tr.Text())
		}
	}
}

// mut is a trace under mutation.
type mut struct {
	t  testing.TB
	tr *trace.Trace
}

func mutate(t testing.TB, tr *trace.Trace) *mut {
	cp := *tr
	cp.Records = append([]trace.Record(nil), tr.Records...)
	return &mut{t: t, tr: &cp}
}

// find returns the index of the n-th (from 0) record whose canonical line contains every
// fragment.
func (m *mut) find(n int, frags ...string) int {
	m.t.Helper()
	for i, r := range m.tr.Records {
		s := r.String()
		ok := true
		for _, f := range frags {
			if !strings.Contains(s, f) {
				ok = false
				break
			}
		}
		if ok {
			if n == 0 {
				return i
			}
			n--
		}
	}
	m.t.Fatalf("no record with %q in\n%s", frags, m.tr.Text())
	return -1
}

func (m *mut) set(i int, p trace.Payload) { m.tr.Records[i].Payload = p }

func (m *mut) del(i int) {
	m.tr.Records = append(m.tr.Records[:i], m.tr.Records[i+1:]...)
	m.renumber()
}

func (m *mut) insert(i int, r trace.Record) {
	m.tr.Records = append(m.tr.Records[:i], append([]trace.Record{r}, m.tr.Records[i:]...)...)
	m.renumber()
}

func (m *mut) renumber() {
	for i := range m.tr.Records {
		m.tr.Records[i].Seq = i
	}
}

func (m *mut) effect(i int) wire.Effect { return m.tr.Records[i].Payload.(wire.Effect) }

func (m *mut) appended(i int) wire.Appended { return m.tr.Records[i].Payload.(wire.Appended) }
