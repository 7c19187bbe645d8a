package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
	"pgregory.net/rapid"
)

// model is a reference model of the pending table, written from docs/PEER-RUNTIME.md §1 directly.
type model struct {
	gens   map[string]int // minted generations per client
	order  []string       // connected clients, in connect order
	events []*mEvent      // every event, in forward order
}

type mEvent struct {
	id      string
	sig     *signal.Signal
	holders []string // "client.gen" in delivery order
	settled bool
}

func (m *model) connected(c string) bool { return slices.Contains(m.order, c) }

func (m *model) key(c string) string { return c + "." + strconv.Itoa(m.gens[c]) }

// TestPropertyWaterfallTable drives random connects, disconnects, forwards, aborts and
// outcomes and checks every effect and settlement against the model.
func TestPropertyWaterfallTable(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		clients := []string{"A", "B", "C"}
		var effects []string
		g := New(Config{Emit: func(e wire.Effect) { effects = append(effects, e.String()) }})
		m := &model{gens: map[string]int{}}
		settles := map[string][]Settlement{}
		var inSettle []string // event ids settled during the current action
		check := func(what string, want []string) {
			if !slices.Equal(effects, want) {
				rt.Fatalf("%s:\n got  %q\n want %q", what, effects, want)
			}
			effects = effects[:0]
		}
		wf := func(k, id string) string {
			return "send " + k + ` waterfall ev=` + id + ` x/request agent=s1 {}`
		}
		finish := func(e *mEvent, winner string) []string {
			var want []string
			for _, k := range e.holders {
				if k != winner {
					want = append(want, "send "+k+" cancel ev="+e.id)
				}
			}
			e.holders = nil
			e.settled = true
			return want
		}
		for step := 0; step < 60; step++ {
			inSettle = inSettle[:0]
			c := rapid.SampledFrom(clients).Draw(rt, "client")
			switch rapid.IntRange(0, 5).Draw(rt, "action") {
			case 0: // connect
				var want []string
				if m.connected(c) {
					old := m.key(c)
					for _, e := range m.events {
						e.holders = slices.DeleteFunc(e.holders, func(k string) bool { return k == old })
					}
					m.order = slices.DeleteFunc(m.order, func(x string) bool { return x == c })
				}
				m.gens[c]++
				m.order = append(m.order, c)
				k := m.key(c)
				want = append(want, "send "+k+" ready gen="+strconv.Itoa(m.gens[c]))
				for _, e := range m.events {
					if !e.settled {
						e.holders = append(e.holders, k)
						want = append(want, wf(k, e.id))
					}
				}
				if gen, err := g.Connect(c); err != nil || gen != m.gens[c] {
					rt.Fatalf("connect %s: gen %d err %v", c, gen, err)
				}
				check("connect "+c, want)
			case 1: // disconnect: never settles, never sends
				err := g.Disconnect(c)
				if !m.connected(c) {
					if !errors.Is(err, ErrNotConnected) {
						rt.Fatalf("disconnect of an unconnected client: %v", err)
					}
				} else {
					k := m.key(c)
					for _, e := range m.events {
						e.holders = slices.DeleteFunc(e.holders, func(x string) bool { return x == k })
					}
					m.order = slices.DeleteFunc(m.order, func(x string) bool { return x == c })
				}
				check("disconnect "+c, nil)
				if len(inSettle) != 0 {
					rt.Fatalf("disconnect %s settled %v", c, inSettle)
				}
			case 2: // forward
				e := &mEvent{id: "e" + strconv.Itoa(len(m.events)+1), sig: signal.New()}
				m.events = append(m.events, e)
				var want []string
				for _, x := range m.order {
					e.holders = append(e.holders, m.key(x))
					want = append(want, wf(m.key(x), e.id))
				}
				id := e.id
				got, err := g.Forward(Invocation{Event: "x/request", AgentID: "s1", Request: json.RawMessage(`{}`), Signal: e.sig,
					Settle: func(s Settlement) { settles[id] = append(settles[id], s); inSettle = append(inSettle, id) }})
				if err != nil || got != e.id {
					rt.Fatalf("forward: %q %v", got, err)
				}
				check("forward", want)
			case 3: // abort an event's signal
				if len(m.events) == 0 {
					continue
				}
				e := rapid.SampledFrom(m.events).Draw(rt, "event")
				var want []string
				wasPending := !e.settled
				if wasPending {
					want = finish(e, "")
				}
				e.sig.Abort(errors.New("abort " + e.id))
				check("abort "+e.id, want)
				if wasPending && (len(inSettle) != 1 || settles[e.id][0].Kind != wire.OutcomeRejected || settles[e.id][0].Err.Error() != "abort "+e.id) {
					rt.Fatalf("abort of %s settled %v", e.id, settles[e.id])
				}
			default: // an outcome from client c, maybe from a stale generation
				if len(m.events) == 0 || m.gens[c] == 0 {
					continue
				}
				e := rapid.SampledFrom(m.events).Draw(rt, "event")
				gen := m.gens[c]
				if rapid.IntRange(0, 4).Draw(rt, "stale") == 0 {
					gen--
				}
				kind := rapid.SampledFrom([]string{wire.OutcomeNext, wire.OutcomeResult, wire.OutcomeRejected}).Draw(rt, "kind")
				out := wire.Outcome{Kind: kind}
				switch kind {
				case wire.OutcomeResult:
					out.Value = json.RawMessage(`"` + c + `"`)
				case wire.OutcomeRejected:
					out.Error = &wire.Error{Name: "Error", Message: c}
				}
				k := c + "." + strconv.Itoa(gen)
				var want []string
				active := m.connected(c) && gen == m.gens[c]
				settleWant := ""
				if active && !e.settled && slices.Contains(e.holders, k) {
					if kind == wire.OutcomeNext {
						e.holders = slices.DeleteFunc(e.holders, func(x string) bool { return x == k })
						if len(e.holders) == 0 {
							e.settled = true
							settleWant = "next by " + c
						}
					} else {
						want = finish(e, k)
						settleWant = Settlement{Kind: kind, Value: out.Value, Err: out.Error, Client: c}.String()
					}
				}
				if active {
					want = append(want, "reply "+k+` rpc=r {"ok":true}`)
				} else {
					want = append(want, "reply "+k+` rpc=r {"ok":false,"error":{"code":"gateway/internal","message":"gateway: client `+k+` identifies no active event stream"}}`)
				}
				g.Result(c, gen, "r", e.id, out)
				check(fmt.Sprintf("result %s %s %s", k, e.id, kind), want)
				switch {
				case settleWant == "" && len(inSettle) != 0:
					rt.Fatalf("%s %s settled %v", k, kind, inSettle)
				case settleWant != "" && (len(inSettle) != 1 || settles[e.id][0].String() != settleWant):
					rt.Fatalf("%s %s: settlement %v, want %s", k, kind, settles[e.id], settleWant)
				}
			}
			// Every event settles at most once, and the table matches the model.
			var want []wire.PendingEvent
			for _, e := range m.events {
				if n := len(settles[e.id]); n > 1 || (n == 1) != e.settled {
					rt.Fatalf("%s settled %d times (model settled=%v)", e.id, n, e.settled)
				}
				if !e.settled {
					var names []string
					for _, k := range e.holders {
						names = append(names, k[:1])
					}
					slices.Sort(names)
					want = append(want, wire.PendingEvent{EventID: e.id, AgentID: "s1", Deliveries: names})
				}
			}
			if got := g.Pending(); fmt.Sprint(got) != fmt.Sprint(want) {
				rt.Fatalf("pending table %v, model %v", got, want)
			}
		}
	})
}
