package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

func TestStreams(t *testing.T) {
	t.Run("items, end and error frames go out on the opening generation", func(t *testing.T) {
		h := newHarness(t)
		h.g.Handle("x/now", func(s *Stream, args json.RawMessage) error {
			if err := s.Item(args); err != nil {
				return err
			}
			return s.End()
		})
		h.g.Handle("x/coded", func(s *Stream, _ json.RawMessage) error { return NewError("x/denied", "no") })
		h.g.Handle("x/plain", func(s *Stream, _ json.RawMessage) error { return errors.New("boom") })
		h.connect("A")
		h.take()
		h.g.OpenStream("A", 1, "s1", "x/now", json.RawMessage(`{"k":1}`))
		h.g.OpenStream("A", 1, "s2", "x/coded", nil)
		h.g.OpenStream("A", 1, "s3", "x/plain", nil)
		h.g.OpenStream("A", 1, "s4", "x/none", nil)
		h.g.OpenStream("A", 1, "s5", "x/now", json.RawMessage(`{`))
		expect(t, h.take(),
			`send A.1 item stream=s1 {"k":1}`,
			"send A.1 end stream=s1",
			`send A.1 error stream=s2 x/denied: "no"`,
			`send A.1 error stream=s3 gateway/internal: "boom"`,
			`send A.1 error stream=s4 gateway/unknown-endpoint: "gateway: unknown stream endpoint \"x/none\""`,
			`send A.1 error stream=s5 gateway/arguments-invalid: "gateway: the arguments of x/now are not JSON"`)
		if c := h.g.Clients(); c[0].Streams != 0 {
			t.Fatalf("finished streams still counted: %+v", c)
		}
	})
	t.Run("a held stream stays open and can emit later; a client cancel aborts it with no terminal frame", func(t *testing.T) {
		h := newHarness(t)
		var held *Stream
		h.g.Handle("x/hold", func(s *Stream, _ json.RawMessage) error { held = s; return nil })
		h.connect("A")
		h.g.OpenStream("A", 1, "s1", "x/hold", nil)
		h.take()
		if err := held.Item(json.RawMessage(`{"remaining":5}`)); err != nil {
			t.Fatal(err)
		}
		expect(t, h.take(), `send A.1 item stream=s1 {"remaining":5}`)
		if c := h.g.Clients(); c[0].Streams != 1 {
			t.Fatalf("open stream not counted: %+v", c)
		}
		if err := h.g.CancelStream("A", 1, "s1"); err != nil {
			t.Fatal(err)
		}
		expect(t, h.take())
		if !errors.Is(held.Signal().Reason(), ErrStreamCancelled) || held.Open() {
			t.Fatalf("cancel: reason %v open %v", held.Signal().Reason(), held.Open())
		}
		if err := held.End(); !errors.Is(err, ErrStreamClosed) {
			t.Fatalf("end after cancel: %v", err)
		}
		if err := h.g.CancelStream("A", 1, "s1"); err != nil {
			t.Fatalf("a cancel for a finished stream must be dropped: %v", err)
		}
		expect(t, h.take())
	})
	t.Run("duplicate stream ids and inactive generations are refused", func(t *testing.T) {
		h := newHarness(t)
		h.g.Handle("x/hold", func(s *Stream, _ json.RawMessage) error { return nil })
		h.connect("A")
		h.g.OpenStream("A", 1, "s1", "x/hold", nil)
		if err := h.g.OpenStream("A", 1, "s1", "x/hold", nil); !errors.Is(err, ErrDuplicateStream) {
			t.Fatalf("duplicate: %v", err)
		}
		if err := h.g.OpenStream("A", 2, "s2", "x/hold", nil); !errors.Is(err, ErrNotConnected) {
			t.Fatalf("inactive generation: %v", err)
		}
		if err := h.g.Handle("x/hold", func(*Stream, json.RawMessage) error { return nil }); !errors.Is(err, ErrDuplicateRoute) {
			t.Fatalf("duplicate handler: %v", err)
		}
	})
	t.Run("GW-7 losing the connection ends every stream it had open, and the event channel with it", func(t *testing.T) {
		h := newHarness(t)
		var held []*Stream
		h.g.Handle("x/hold", func(s *Stream, _ json.RawMessage) error { held = append(held, s); return nil })
		h.connect("A")
		h.connect("B")
		id := h.forward("x/request", nil)
		for i := 1; i <= 2; i++ {
			h.g.OpenStream("A", 1, fmt.Sprint("s", i), "x/hold", nil)
		}
		h.g.OpenStream("B", 1, "s1", "x/hold", nil)
		h.take()
		var released []string
		for _, s := range held {
			s.Signal().OnAbort(func(r error) { released = append(released, s.String()+" "+r.Error()) })
		}
		h.g.Disconnect("A")
		expect(t, h.take())
		want := []string{
			"A.1/s1 x/hold " + ErrConnectionLost.Error(),
			"A.1/s2 x/hold " + ErrConnectionLost.Error(),
		}
		if fmt.Sprint(released) != fmt.Sprint(want) {
			t.Fatalf("released %q", released)
		}
		if held[2].Signal().IsAborted() || !held[2].Open() {
			t.Fatal("another client's stream ended")
		}
		if p := h.g.Pending(); len(p) != 1 || fmt.Sprint(p[0].Deliveries) != "[B]" || len(h.settled[id]) != 0 {
			t.Fatalf("event after A's disconnect: %+v", p)
		}
		// A plain stream does not come back by itself with a new generation.
		h.connect("A")
		if c := h.g.Clients(); c[0].Client != "A" || c[0].Streams != 0 {
			t.Fatalf("streams after reconnect: %+v", c)
		}
		if err := held[0].Item(json.RawMessage(`1`)); !errors.Is(err, ErrStreamClosed) {
			t.Fatalf("item on a lost stream: %v", err)
		}
	})
}

func TestCalls(t *testing.T) {
	t.Run("GW-8 replies are {ok,value} or {ok:false,error:{code,message}}", func(t *testing.T) {
		h := newHarness(t)
		var seen Caller
		h.g.HandleCall("x/echo", func(c Caller, args json.RawMessage) (json.RawMessage, error) { seen = c; return args, nil })
		h.g.HandleCall("x/void", func(Caller, json.RawMessage) (json.RawMessage, error) { return nil, nil })
		h.g.HandleCall("x/coded", func(Caller, json.RawMessage) (json.RawMessage, error) {
			return nil, fmt.Errorf("wrapped: %w", NewError("session/not-found", "no session s9"))
		})
		h.g.HandleCall("x/plain", func(Caller, json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("REPLY_QUEUED: a reply is queued")
		})
		h.g.HandleCall("x/bad", func(Caller, json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`{`), nil })
		h.g.Call("A", 3, "r1", "x/echo", json.RawMessage(`{"agentId":"s1"}`))
		h.g.Call("A", 3, "r2", "x/void", nil)
		h.g.Call("A", 3, "r3", "x/coded", nil)
		h.g.Call("A", 3, "r4", "x/plain", nil)
		h.g.Call("A", 3, "r5", "x/bad", nil)
		h.g.Call("A", 3, "r6", "x/none", nil)
		h.g.Call("A", 3, "r7", "x/echo", json.RawMessage(`{"a":`))
		expect(t, h.take(),
			`reply A.3 rpc=r1 {"ok":true,"value":{"agentId":"s1"}}`,
			`reply A.3 rpc=r2 {"ok":true}`,
			`reply A.3 rpc=r3 {"ok":false,"error":{"code":"session/not-found","message":"no session s9"}}`,
			`reply A.3 rpc=r4 {"ok":false,"error":{"code":"gateway/internal","message":"REPLY_QUEUED: a reply is queued"}}`,
			`reply A.3 rpc=r5 {"ok":false,"error":{"code":"gateway/internal","message":"gateway: x/bad returned a value that is not JSON"}}`,
			`reply A.3 rpc=r6 {"ok":false,"error":{"code":"gateway/unknown-endpoint","message":"gateway: unknown endpoint \"x/none\""}}`,
			`reply A.3 rpc=r7 {"ok":false,"error":{"code":"gateway/arguments-invalid","message":"gateway: the arguments of x/echo are not JSON"}}`)
		if seen != (Caller{Client: "A", Gen: 3, RPCID: "r1"}) {
			t.Fatalf("caller %+v", seen)
		}
	})
	t.Run("GW-8 the reply comes after every effect the handler caused", func(t *testing.T) {
		h := newHarness(t)
		h.connect("A")
		h.g.HandleCall("x/start", func(Caller, json.RawMessage) (json.RawMessage, error) {
			h.forward("x/request", nil)
			return json.RawMessage(`true`), nil
		})
		h.take()
		h.g.Call("A", 1, "r1", "x/start", nil)
		expect(t, h.take(),
			`send A.1 waterfall ev=e1 x/request agent=s1 {"n":1}`,
			`reply A.1 rpc=r1 {"ok":true,"value":true}`)
	})
}
