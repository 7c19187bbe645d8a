package gateway

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// harness is a gateway with its effects and settlements recorded.
type harness struct {
	t       *testing.T
	g       *Gateway
	effects []wire.Effect
	settled map[string][]Settlement // by event id
	order   []string                // settle order of event ids
}

func newHarness(t *testing.T) *harness {
	h := &harness{t: t, settled: map[string][]Settlement{}}
	h.g = New(Config{Emit: func(e wire.Effect) { h.effects = append(h.effects, e) }})
	return h
}

// take returns the effects since the last take as canonical text lines.
func (h *harness) take() []string {
	out := make([]string, 0, len(h.effects))
	for _, e := range h.effects {
		out = append(out, e.String())
	}
	h.effects = h.effects[:0]
	return out
}

func (h *harness) connect(c string) int {
	gen, err := h.g.Connect(c)
	if err != nil {
		h.t.Fatal(err)
	}
	return gen
}

// forward forwards an event named ev whose settlement is recorded under its event id.
func (h *harness) forward(ev string, sig *signal.Signal) string {
	var id string
	var early []Settlement
	got, err := h.g.Forward(Invocation{
		Event: ev, AgentID: "s1", Request: json.RawMessage(`{"n":1}`), Signal: sig,
		Settle: func(s Settlement) {
			if id == "" {
				early = append(early, s)
				return
			}
			h.settled[id] = append(h.settled[id], s)
			h.order = append(h.order, id)
		},
	})
	if err != nil {
		h.t.Fatal(err)
	}
	id = got
	if len(early) > 0 {
		h.settled[id] = append(h.settled[id], early...)
		h.order = append(h.order, id)
	}
	return id
}

func result(v string) wire.Outcome {
	return wire.Outcome{Kind: wire.OutcomeResult, Value: json.RawMessage(v)}
}

var next = wire.Outcome{Kind: wire.OutcomeNext}

func expect(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("effects:\n got  %q\n want %q", got, want)
	}
}

func TestWaterfallSettlement(t *testing.T) {
	t.Run("GW-1 first result wins, the winner gets no frame, the others a cancel, later outcomes are dropped", func(t *testing.T) {
		h := newHarness(t)
		h.connect("A")
		h.connect("B")
		h.connect("C")
		h.take()
		id := h.forward("x/request", nil)
		expect(t, h.take(),
			`send A.1 waterfall ev=e1 x/request agent=s1 {"n":1}`,
			`send B.1 waterfall ev=e1 x/request agent=s1 {"n":1}`,
			`send C.1 waterfall ev=e1 x/request agent=s1 {"n":1}`)
		h.g.Result("B", 1, "r1", id, result(`{"v":2}`))
		expect(t, h.take(), "send A.1 cancel ev=e1", "send C.1 cancel ev=e1", `reply B.1 rpc=r1 {"ok":true}`)
		h.g.Result("A", 1, "r2", id, result(`{"v":1}`))
		h.g.Result("C", 1, "r3", id, wire.Outcome{Kind: wire.OutcomeRejected, Error: &wire.Error{Name: "Error", Message: "late"}})
		expect(t, h.take(), `reply A.1 rpc=r2 {"ok":true}`, `reply C.1 rpc=r3 {"ok":true}`)
		if s := h.settled[id]; len(s) != 1 || s[0].String() != `result {"v":2} by B` {
			t.Fatalf("settlements %v", s)
		}
		if len(h.g.Pending()) != 0 {
			t.Fatalf("pending left: %v", h.g.Pending())
		}
	})
	t.Run("GW-1 one client's rejection ends the request for everyone with its error unchanged", func(t *testing.T) {
		h := newHarness(t)
		h.connect("A")
		h.connect("B")
		id := h.forward("x/request", nil)
		h.take()
		rej := &wire.Error{Name: "UserQuestionError", Code: "ASK_TIMED_OUT", Message: "timed out"}
		h.g.Result("A", 1, "r1", id, wire.Outcome{Kind: wire.OutcomeRejected, Error: rej})
		expect(t, h.take(), "send B.1 cancel ev=e1", `reply A.1 rpc=r1 {"ok":true}`)
		s := h.settled[id]
		if len(s) != 1 || s[0].Kind != wire.OutcomeRejected || s[0].Err != error(rej) || s[0].Client != "A" {
			t.Fatalf("settlement %+v", s)
		}
		h.g.Result("B", 1, "r2", id, result(`1`))
		if len(h.settled[id]) != 1 {
			t.Fatal("a later result settled again")
		}
	})
	t.Run("GW-1 a result from an old generation is refused and cannot finish the event", func(t *testing.T) {
		h := newHarness(t)
		h.connect("A")
		id := h.forward("x/request", nil)
		h.connect("A") // generation 2 replaces 1 and gets the replay
		h.take()
		h.g.Result("A", 1, "r1", id, result(`1`))
		expect(t, h.take(), `reply A.1 rpc=r1 {"ok":false,"error":{"code":"gateway/internal","message":"gateway: client A.1 identifies no active event stream"}}`)
		if len(h.settled[id]) != 0 {
			t.Fatal("a stale generation settled the event")
		}
		h.g.Result("A", 2, "r2", id, result(`2`))
		if s := h.settled[id]; len(s) != 1 || string(s[0].Value) != "2" {
			t.Fatalf("settlement %v", s)
		}
	})
	t.Run("GW-1 malformed outcomes are refused and change nothing", func(t *testing.T) {
		for _, out := range []wire.Outcome{
			{Kind: "maybe"},
			{Kind: wire.OutcomeResult, Value: json.RawMessage(`{`)},
			{Kind: wire.OutcomeRejected},
			{Kind: wire.OutcomeRejected, Error: &wire.Error{Message: "no name"}},
			{Kind: wire.OutcomeNext, Value: json.RawMessage(`1`)},
		} {
			h := newHarness(t)
			h.connect("A")
			id := h.forward("x/request", nil)
			h.take()
			h.g.Result("A", 1, "r", id, out)
			got := h.take()
			if len(got) != 1 || !strings.Contains(got[0], "gateway/arguments-invalid") {
				t.Fatalf("%v: %q", out, got)
			}
			if len(h.settled[id]) != 0 || len(h.g.Pending()) != 1 || len(h.g.Pending()[0].Deliveries) != 1 {
				t.Fatalf("%v changed the event", out)
			}
		}
	})
}

func TestWaterfallEventNamesAreOpaque(t *testing.T) {
	t.Run("GW-2 two event names take exactly the same path", func(t *testing.T) {
		run := func(ev string) []string {
			h := newHarness(t)
			h.connect("A")
			h.connect("B")
			sig := signal.New()
			a := h.forward(ev, nil)
			h.forward(ev, sig)
			h.g.Result("A", 1, "r1", a, next)
			h.g.Disconnect("B")
			h.connect("B")
			sig.Abort(errors.New("stop"))
			h.g.Result("B", 2, "r2", a, result(`7`))
			var lines []string
			for _, l := range h.take() {
				lines = append(lines, strings.ReplaceAll(l, ev, "EVENT"))
			}
			for _, id := range h.order {
				lines = append(lines, id+" "+h.settled[id][0].String())
			}
			return lines
		}
		a, b := run("approval/request"), run("zz/other")
		if !slices.Equal(a, b) || len(a) == 0 {
			t.Fatalf("event names changed behaviour:\n%q\n%q", a, b)
		}
	})
}

func TestWaterfallAbort(t *testing.T) {
	t.Run("GW-3 signal abort cancels every delivery and settles rejected with the reason", func(t *testing.T) {
		h := newHarness(t)
		h.connect("A")
		h.connect("B")
		sig := signal.New()
		id := h.forward("x/request", sig)
		h.g.Result("A", 1, "r1", id, next) // A withdrew: only B still holds it
		h.take()
		reason := errors.New("wait timed out")
		sig.Abort(reason)
		expect(t, h.take(), "send B.1 cancel ev=e1")
		s := h.settled[id]
		if len(s) != 1 || s[0].Kind != wire.OutcomeRejected || s[0].Err != reason || s[0].Client != "" {
			t.Fatalf("settlement %+v", s)
		}
		if sig.Listeners() != 0 {
			t.Fatal("the gateway left its listener on the signal")
		}
		h.g.Result("B", 1, "r2", id, result(`1`))
		expect(t, h.take(), `reply B.1 rpc=r2 {"ok":true}`)
		if len(h.settled[id]) != 1 {
			t.Fatal("a result after the abort settled again")
		}
	})
	t.Run("GW-3 an already aborted signal settles at once and delivers nothing", func(t *testing.T) {
		h := newHarness(t)
		h.connect("A")
		h.take()
		reason := errors.New("gone")
		id := h.forward("x/request", signal.Aborted(reason))
		expect(t, h.take())
		if s := h.settled[id]; len(s) != 1 || s[0].Err != reason {
			t.Fatalf("settlement %+v", s)
		}
		if len(h.g.Pending()) != 0 {
			t.Fatal("an aborted event entered the table")
		}
	})
	t.Run("GW-3 a released agent context cancels and rejects; released before forward it settles next", func(t *testing.T) {
		h := newHarness(t)
		h.connect("A")
		h.take()
		ctx := signal.New()
		var got []Settlement
		inv := Invocation{Event: "x/request", AgentID: "s1", Request: json.RawMessage(`{}`), Context: ctx,
			Settle: func(s Settlement) { got = append(got, s) }}
		if _, err := h.g.Forward(inv); err != nil {
			t.Fatal(err)
		}
		h.take()
		ctx.Abort(errors.New("disposed"))
		expect(t, h.take(), "send A.1 cancel ev=e1")
		if len(got) != 1 || got[0].Err != error(ErrContextReleased) {
			t.Fatalf("settlement %+v", got)
		}
		id, err := h.g.Forward(inv)
		if err != nil || id != "" || len(got) != 2 || got[1].Kind != wire.OutcomeNext {
			t.Fatalf("forward with a released context: id %q err %v settlements %+v", id, err, got)
		}
		expect(t, h.take())
	})
}

func TestWaterfallNoAcknowledgement(t *testing.T) {
	t.Run("GW-4 the reply to a winning result is the same as to a losing one and the winner gets no frame", func(t *testing.T) {
		h := newHarness(t)
		h.connect("A")
		h.connect("B")
		id := h.forward("x/request", nil)
		h.take()
		h.g.Result("A", 1, "win", id, result(`1`))
		h.g.Result("B", 1, "lose", id, result(`2`))
		var replies []wire.Envelope
		for _, e := range h.effects {
			switch e := e.(type) {
			case wire.Reply:
				replies = append(replies, e.Envelope)
			case wire.SendFrame:
				if e.Client == "A" {
					t.Fatalf("the winner got a frame: %v", e)
				}
			}
		}
		if len(replies) != 2 || replies[0].String() != replies[1].String() {
			t.Fatalf("replies differ: %v", replies)
		}
	})
}

func TestWaterfallReplay(t *testing.T) {
	t.Run("GW-5 a connecting client gets ready then every pending event in table order under its original id", func(t *testing.T) {
		h := newHarness(t)
		h.connect("A")
		e1 := h.forward("x/a", nil)
		e2 := h.forward("x/b", nil)
		e3 := h.forward("x/c", nil)
		h.g.Result("A", 1, "r", e2, result(`1`)) // e2 settles: not replayed
		h.take()
		if gen := h.connect("B"); gen != 1 {
			t.Fatalf("first generation of B is %d", gen)
		}
		expect(t, h.take(),
			"send B.1 ready gen=1",
			`send B.1 waterfall ev=e1 x/a agent=s1 {"n":1}`,
			`send B.1 waterfall ev=e3 x/c agent=s1 {"n":1}`)
		if e1 != "e1" || e3 != "e3" {
			t.Fatalf("ids %s %s", e1, e3)
		}
		e4 := h.forward("x/d", nil) // live delivery, connect order
		expect(t, h.take(),
			`send A.1 waterfall ev=e4 x/d agent=s1 {"n":1}`,
			`send B.1 waterfall ev=e4 x/d agent=s1 {"n":1}`)
		// A reconnects after saying next: its new generation is a new client and gets the event again.
		h.g.Result("A", 1, "r2", e4, next)
		if gen := h.connect("A"); gen != 2 {
			t.Fatalf("second generation of A is %d", gen)
		}
		expect(t, h.take(),
			`reply A.1 rpc=r2 {"ok":true}`,
			"send A.2 ready gen=2",
			`send A.2 waterfall ev=e1 x/a agent=s1 {"n":1}`,
			`send A.2 waterfall ev=e3 x/c agent=s1 {"n":1}`,
			`send A.2 waterfall ev=e4 x/d agent=s1 {"n":1}`)
		got := h.g.Pending()
		if len(got) != 3 || got[2].EventID != "e4" || !slices.Equal(got[2].Deliveries, []string{"A", "B"}) {
			t.Fatalf("pending %+v", got)
		}
		// New deliveries follow connect order: B (connected before A's new generation) first.
		h.forward("x/e", nil)
		expect(t, h.take(),
			`send B.1 waterfall ev=e5 x/e agent=s1 {"n":1}`,
			`send A.2 waterfall ev=e5 x/e agent=s1 {"n":1}`)
	})
	t.Run("GW-5 with no client connected the event waits and is delivered on connect", func(t *testing.T) {
		h := newHarness(t)
		id := h.forward("x/a", nil)
		if len(h.settled[id]) != 0 || len(h.g.Pending()) != 1 {
			t.Fatal("an undelivered event did not wait")
		}
		h.connect("A")
		expect(t, h.take(), "send A.1 ready gen=1", `send A.1 waterfall ev=e1 x/a agent=s1 {"n":1}`)
	})
}

func TestWaterfallNext(t *testing.T) {
	t.Run("GW-6 A next while B holds does nothing; B next settles next", func(t *testing.T) {
		h := newHarness(t)
		h.connect("A")
		h.connect("B")
		id := h.forward("x/request", nil)
		h.take()
		h.g.Result("A", 1, "r1", id, next)
		expect(t, h.take(), `reply A.1 rpc=r1 {"ok":true}`)
		if len(h.settled[id]) != 0 {
			t.Fatal("settled while B still holds the delivery")
		}
		if p := h.g.Pending(); len(p) != 1 || !slices.Equal(p[0].Deliveries, []string{"B"}) {
			t.Fatalf("pending %+v", p)
		}
		h.g.Result("A", 1, "r2", id, result(`1`)) // A no longer holds it: dropped
		if len(h.settled[id]) != 0 {
			t.Fatal("a withdrawn client settled the event")
		}
		h.g.Result("B", 1, "r3", id, next)
		expect(t, h.take(), `reply A.1 rpc=r2 {"ok":true}`, `reply B.1 rpc=r3 {"ok":true}`)
		if s := h.settled[id]; len(s) != 1 || s[0].Kind != wire.OutcomeNext {
			t.Fatalf("settlement %+v", s)
		}
	})
	t.Run("GW-6 a disconnect is not a next: the event stays pending with no delivery", func(t *testing.T) {
		h := newHarness(t)
		h.connect("A")
		h.connect("B")
		id := h.forward("x/request", nil)
		h.g.Result("B", 1, "r1", id, next)
		h.take()
		if err := h.g.Disconnect("A"); err != nil {
			t.Fatal(err)
		}
		expect(t, h.take())
		if len(h.settled[id]) != 0 {
			t.Fatal("a disconnect settled the event")
		}
		if p := h.g.Pending(); len(p) != 1 || len(p[0].Deliveries) != 0 {
			t.Fatalf("pending %+v", p)
		}
		h.connect("A")
		h.g.Result("A", 2, "r2", id, next)
		if s := h.settled[id]; len(s) != 1 || s[0].Kind != wire.OutcomeNext {
			t.Fatalf("settlement after the reconnected client passed: %+v", s)
		}
	})
	t.Run("GW-6 disconnecting a client that is not connected is an error", func(t *testing.T) {
		h := newHarness(t)
		if err := h.g.Disconnect("A"); !errors.Is(err, ErrNotConnected) {
			t.Fatalf("err %v", err)
		}
	})
}

func TestForwardValidation(t *testing.T) {
	settle := func(Settlement) {}
	for _, inv := range []Invocation{
		{AgentID: "s1", Request: json.RawMessage(`{}`), Settle: settle},
		{Event: "x", Request: json.RawMessage(`{}`), Settle: settle},
		{Event: "x", AgentID: "s1", Request: json.RawMessage(`{`), Settle: settle},
		{Event: "x", AgentID: "s1", Request: json.RawMessage(`{}`)},
	} {
		h := newHarness(t)
		h.connect("A")
		h.take()
		if _, err := h.g.Forward(inv); !errors.Is(err, ErrBadInvocation) {
			t.Fatalf("%+v: err %v", inv, err)
		}
		expect(t, h.take())
		if len(h.g.Pending()) != 0 {
			t.Fatal("an invalid invocation entered the table")
		}
	}
}

func TestReset(t *testing.T) {
	h := newHarness(t)
	h.connect("A")
	id := h.forward("x/request", nil)
	var reason error
	h.g.Handle("x/stream", func(s *Stream, _ json.RawMessage) error {
		s.Signal().OnAbort(func(r error) {
			reason = r
			if s.Item(json.RawMessage(`1`)) == nil {
				t.Error("a stream accepted an item while the gateway reset")
			}
		})
		return nil
	})
	h.g.OpenStream("A", 1, "s1", "x/stream", nil)
	h.take()
	h.g.Reset()
	expect(t, h.take())
	if !errors.Is(reason, ErrReset) || len(h.g.Clients()) != 0 || len(h.g.Pending()) != 0 || len(h.settled[id]) != 0 {
		t.Fatalf("after reset: reason %v clients %v pending %v settled %v", reason, h.g.Clients(), h.g.Pending(), h.settled[id])
	}
	if gen := h.connect("A"); gen != 2 {
		t.Fatalf("generation after reset %d: counters must survive", gen)
	}
	if id2 := h.forward("x/request", nil); id2 != "e2" {
		t.Fatalf("event id after reset %s", id2)
	}
}
