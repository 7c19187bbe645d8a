package client

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

func TestClaim(t *testing.T) {
	t.Run("CLAIM-1 a timed request opens attachWait before its channel is attached", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		expect(t, x.at(0, wf("e1", "s1", "c1", "timed", qPkg)),
			`open gen=1 stream=c1-s1 userQuestions/attachWait {"agentId":"s1","callId":"c1"}`)
		if k := x.card("c1"); k.Channel != wire.ChannelNone || k.Countdown != nil {
			t.Fatalf("before the claim frame the card must have no channel: %s", k)
		}
		if err := x.userErr(10, wire.ActSubmit); !strings.Contains(err.Error(), "no answer channel") {
			t.Fatal(err)
		}
	})
	t.Run("CLAIM-1 the channel attaches only with the claim frame", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "timed", qPkg))
		x.user(5, wire.ActChoose, "label=bun")
		if err := x.userErr(10, wire.ActSubmit); !strings.Contains(err.Error(), "no answer channel") {
			t.Fatal(err)
		}
		x.at(20, item("c1-s1", 5000))
		if k := x.card("c1"); k.Channel != wire.ChannelWaterfall {
			t.Fatalf("after the frame: %s", k)
		}
	})
	t.Run("CLAIM-1 an untimed keyed request opens no claim", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		expect(t, x.at(0, wf("e1", "s1", "c1", "keyed", qPkg)))
		if k := x.card("c1"); k.Channel != wire.ChannelWaterfall || k.Countdown != nil {
			t.Fatalf("%s", k)
		}
	})
	t.Run("CLAIM-2 the claim is kept after the answer is sent", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.user(100, wire.ActChoose, "label=npm")
		expect(t, x.user(200, wire.ActSubmit),
			`result gen=1 rpc=c1-r1 ev=e1 result {"answers":[{"id":"pkg","selected":["npm"]}]}`)
		// Nothing releases the claim on the client's side: ticks, time, the HTTP ok.
		expect(t, x.at(40000, wire.ClientTick{}))
		expect(t, x.at(40001, httpOK("c1-r1", "")))
		// The claim is still open: the host's end is what closes it, with no cancel.
		expect(t, x.at(40002, end("c1-s1")))
	})
	t.Run("CLAIM-2 local expiry keeps the claim too", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 2000)
		got := x.at(2000, wire.ClientTick{})
		expect(t, got, `result gen=1 rpc=c1-r1 ev=e1 rejected UserQuestionError/ASK_TIMED_OUT: "ask_user_question timed out before the user answered"`)
		// A cancel of the delivery then releases the claim (the claim signal follows it).
		expect(t, x.at(2100, cancel("e1")), `cancel gen=1 stream=c1-s1`)
	})
	t.Run("CLAIM-2 a failed result keeps the claims of outcomes still in flight", func(t *testing.T) {
		// (the fuzz finding of seed 257) two claims, both expire locally; the first result fails while the
		// second is unacknowledged. Nothing is released until the second has its reply.
		x := newH(t)
		x.timedCard(0, 2000)
		x.at(0, wf("e2", "s1", "c2", "timed", qPkg))
		x.at(0, item("c1-s2", 2000))
		x.at(0, wf("e3", "s1", "c3", "timed", qPkg)) // still in its handshake
		expect(t, x.at(2000, wire.ClientTick{}), expired("c1-r1"), `result gen=1 rpc=c1-r2 ev=e2 `+timedOut)
		// r1 fails: the undecided delivery (e3) aborts and its claim goes; c1 and c2 stay.
		expect(t, x.at(2030, wire.FromHTTP{RPCID: "c1-r1", Envelope: wire.Failure("net/failed", "lost")}),
			`cancel gen=1 stream=c1-s3`)
		if !x.c.State().Connected {
			t.Fatal("the generation ended before the outcome in flight had its reply")
		}
		// A waterfall of the failing generation is not taken (its replay comes later).
		expect(t, x.at(2040, wf("e4", "s1", "c4", "timed", qPkg)))
		// The host ends c2's claim: it had the outcome. Nothing is sent back.
		expect(t, x.at(2050, end("c1-s2")))
		// r2's reply: the generation ends now, the claims left are cancelled, the client dials.
		expect(t, x.at(2060, httpOK("c1-r2", "")), `cancel gen=1 stream=c1-s1`, "dial")
		// The next generation takes the replays.
		x.at(2100, ready(2))
		expect(t, x.at(2100, wf("e1", "s1", "c1", "timed", qPkg)),
			`open gen=2 stream=c1-s4 userQuestions/attachWait {"agentId":"s1","callId":"c1"}`)
	})
	t.Run("CLAIM-2 a second failure while the generation fails waits for the rest", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 2000)
		x.at(0, wf("e2", "s1", "c2", "timed", qPkg))
		x.at(0, item("c1-s2", 2000))
		x.at(0, wf("e3", "s1", "c3", "timed", qPkg))
		x.at(0, item("c1-s3", 2000))
		x.at(2000, wire.ClientTick{})
		expect(t, x.at(2010, wire.FromHTTP{RPCID: "c1-r2", Envelope: wire.Failure("net/failed", "lost")}))
		expect(t, x.at(2020, wire.FromHTTP{RPCID: "c1-r3", Envelope: wire.Failure("net/failed", "lost")}))
		expect(t, x.at(2030, httpOK("c1-r1", "")),
			`cancel gen=1 stream=c1-s1`, `cancel gen=1 stream=c1-s2`, `cancel gen=1 stream=c1-s3`, "dial")
		// A link loss while failing ends the generation at once, with no cancel (the link is gone).
		y := newH(t)
		y.timedCard(0, 2000)
		y.at(0, wf("e2", "s1", "c2", "timed", qPkg))
		y.at(0, item("c1-s2", 2000))
		y.at(2000, wire.ClientTick{})
		y.at(2010, wire.FromHTTP{RPCID: "c1-r1", Envelope: wire.Failure("net/failed", "lost")})
		expect(t, y.at(2020, wire.LinkDown{}), "dial")
		expect(t, y.at(2030, httpOK("c1-r2", "")))
	})
	t.Run("CLAIM-2 teardown keeps the claim of an outcome in flight until its reply", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.at(0, wf("e2", "s1", "c2", "timed", qPkg))
		x.at(0, item("c1-s2", 30000))
		x.user(10, wire.ActChoose, "label=npm") // c2 holds the seat
		expect(t, x.user(20, wire.ActSubmit), `result gen=1 rpc=c1-r1 ev=e2 result {"answers":[{"id":"pkg","selected":["npm"]}]}`)
		// c1 is delegated (its claim released first); c2's claim waits for r1's reply.
		expect(t, x.user(30, wire.ActTeardown), `cancel gen=1 stream=c1-s1`, `result gen=1 rpc=c1-r2 ev=e1 next`)
		expect(t, x.at(40, httpOK("c1-r1", "")), `cancel gen=1 stream=c1-s2`)
		expect(t, x.at(50, httpOK("c1-r2", "")))
	})
	t.Run("CLAIM-3 the host ending the claim after settlement needs no answer", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.user(100, wire.ActChoose, "label=npm")
		x.user(200, wire.ActSubmit)
		before := x.card("c1").String()
		expect(t, x.at(300, end("c1-s1")))
		if after := x.card("c1").String(); after != before {
			t.Fatalf("the claim's end changed the card:\n%s\n%s", before, after)
		}
		// The stream is gone: a second end is unknown and ignored.
		expect(t, x.at(301, end("c1-s1")))
	})
	t.Run("CLAIM-4 explicit delegation releases the claim before next", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		expect(t, x.user(100, wire.ActDelegate, "card=c1"),
			`cancel gen=1 stream=c1-s1`,
			`result gen=1 rpc=c1-r1 ev=e1 next`)
		if k := x.card("c1"); k.Channel != wire.ChannelNone {
			t.Fatalf("%s", k)
		}
		x.userErr(200, wire.ActDelegate, "card=c1")
	})
	t.Run("CLAIM-4 teardown delegates and cancels its stream", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		expect(t, x.user(100, wire.ActTeardown),
			`cancel gen=1 stream=c1-s1`,
			`result gen=1 rpc=c1-r1 ev=e1 next`)
	})
	t.Run("CLAIM-5 a claim stream that ends with no frame delegates and keeps the card", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "timed", qPkg))
		expect(t, x.at(50, end("c1-s1")), `result gen=1 rpc=c1-r1 ev=e1 next`)
		k := x.card("c1")
		if !k.Shown || k.Channel != wire.ChannelNone || k.Countdown != nil {
			t.Fatalf("%s", k)
		}
		if _, ok := x.c.NextDeadline(); ok {
			t.Fatal("no timer after a frameless claim")
		}
	})
	t.Run("CLAIM-6 a claim stream that ends before the answer ends the listener", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		expect(t, x.at(5000, end("c1-s1")),
			`result gen=1 rpc=c1-r1 ev=e1 rejected Error: "the foreground question wait ended"`)
		k := x.card("c1")
		if k.Channel != wire.ChannelNone || k.Countdown != nil {
			t.Fatalf("%s", k)
		}
		if _, ok := x.c.NextDeadline(); ok {
			t.Fatal("the countdown must stop with the listener")
		}
		// The host's cancel that follows changes nothing more.
		expect(t, x.at(5001, cancel("e1")))
		x.userErr(5002, wire.ActSubmit)
	})
	t.Run("CLAIM-6 a second claim item ends the claim and cancels the stream", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		expect(t, x.at(100, item("c1-s1", 100)),
			`result gen=1 rpc=c1-r1 ev=e1 rejected Error: "the foreground question wait ended"`,
			`cancel gen=1 stream=c1-s1`)
	})
	t.Run("CLAIM-7 local expiry rejects with ASK_TIMED_OUT on the client clock", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 2000)
		if x.next() != 2000 {
			t.Fatalf("next %d", x.next())
		}
		expect(t, x.at(1999, wire.ClientTick{}))
		if cd := x.countdown("c1"); cd != "1ms running" {
			t.Fatal(cd)
		}
		expect(t, x.at(2000, wire.ClientTick{}),
			`result gen=1 rpc=c1-r1 ev=e1 rejected UserQuestionError/ASK_TIMED_OUT: "ask_user_question timed out before the user answered"`)
		k := x.card("c1")
		if !k.Shown || k.Channel != wire.ChannelNone || k.State != wire.StateOpen {
			t.Fatalf("the card stays after expiry: %s", k)
		}
	})
	t.Run("CLAIM-8 a claim stream failure rejects the question", func(t *testing.T) {
		for _, afterFrame := range []bool{false, true} {
			x := newH(t)
			x.at(0, ready(1))
			x.at(0, wf("e1", "s1", "c1", "timed", qPkg))
			if afterFrame {
				x.at(10, item("c1-s1", 5000))
			}
			expect(t, x.at(20, wire.FromHost{Frame: wire.StreamError{StreamID: "c1-s1", Code: wire.GatewayInternal, Message: "caller not live"}}),
				`result gen=1 rpc=c1-r1 ev=e1 rejected RemoteError/gateway/internal: "caller not live"`)
		}
	})
	t.Run("CLAIM-8 a failure after the answer is only the claim's end", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.user(100, wire.ActChoose, "label=npm")
		x.user(200, wire.ActSubmit)
		expect(t, x.at(300, wire.FromHost{Frame: wire.StreamError{StreamID: "c1-s1", Code: "x", Message: "y"}}))
	})
}
