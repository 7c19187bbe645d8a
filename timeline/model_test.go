package timeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
	"github.com/twosettle/twosettle/tracemodel"
)

// runFile runs a scenario (YAML text) through the harness, as simrun timeline does.
func runFile(t *testing.T, name, yaml, mutant string) *harness.Result {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := harness.DefaultOptions()
	opts.Mutant = mutant
	r := harness.RunEntry(harness.FileEntry(path, []byte(yaml)), opts)
	if r.Invalid != nil {
		t.Fatalf("%s: %v", name, r.Invalid)
	}
	return r
}

func library(t *testing.T, name string) *harness.Result {
	t.Helper()
	for _, e := range harness.Library("") {
		if strings.TrimSuffix(filepath.Base(e.Path), ".yaml") == name {
			return harness.RunEntry(e, harness.DefaultOptions())
		}
	}
	t.Fatalf("no library scenario %s", name)
	return nil
}

// Every message of every library run is drawn once: each frame the host sends and each
// HTTP message a client sends is the start of exactly one arrow (delivered, lost or in
// flight at the end), and each frame a client receives and each result, RPC or claim
// the host receives is the end of exactly one, from a send of the same message.
func TestEveryMessageIsOneArrow(t *testing.T) {
	for _, e := range harness.Library("") {
		r := harness.RunEntry(e, harness.DefaultOptions())
		checkArrows(t, e.Path, r.Trace, hasInputSteps(r))
	}
}

// hasInputSteps reports whether the scenario delivers client inputs by hand (a: {input:
// …}): such a frame reaches its client from no recorded send.
func hasInputSteps(r *harness.Result) bool {
	for _, st := range r.Scenario.Steps {
		if st.User != nil && st.User.Kind == scenarios.UserInput {
			return true
		}
	}
	return false
}

func checkArrows(t *testing.T, name string, tr *trace.Trace, inputs ...bool) {
	t.Helper()
	recs := tr.Records
	m := build(tr)
	from, to := map[int]int{}, map[int]int{}
	for _, x := range m.msgs {
		from[x.From]++
		if x.To >= 0 {
			to[x.To]++
			if !x.Lost && recs[x.To].Time < recs[x.From].Time {
				t.Fatalf("%s: a message arrives before it left: %s -> %s", name, recs[x.From], recs[x.To])
			}
		}
	}
	for i, rec := range recs {
		switch rec.Payload.(type) {
		case wire.SendFrame, wire.SendResult, wire.SendCall, wire.OpenStream, wire.CancelStream:
			if rec.Kind == trace.Out && from[i] != 1 {
				t.Fatalf("%s: %d arrows from %s", name, from[i], rec)
			}
		case wire.FromHost, wire.EventResult, wire.Call, wire.StreamOpen:
			byHand := len(inputs) > 0 && inputs[0] && to[i] == 0 && trace.IsClient(rec.Actor)                 // an input step's frame
			if rec.Kind == trace.In && to[i] != 1 && !byHand && !strings.Contains(rec.String(), "=inject-") { // an injected outcome or claim has no sender
				t.Fatalf("%s: %d arrows to %s", name, to[i], rec)
			}
		case wire.FromHTTP:
			// a failure the simulator makes for a call a crashed host never answered
			// comes from no recorded send
			if rec.Kind == trace.In && to[i] > 1 {
				t.Fatalf("%s: %d arrows to %s", name, to[i], rec)
			}
		}
	}
}

func TestLostAndDelayedMessages(t *testing.T) {
	t.Run("GW-8 a lost $events/result ends in a drop, and the network's failure reaches the client", func(t *testing.T) {
		r := library(t, "claim-failed-result-keeps-claims-in-flight")
		m := build(r.Trace)
		var lost, failure int
		for _, x := range m.msgs {
			if x.Lost && x.Kind == "result" && x.Why == trace.WhyLost {
				lost++
				if r.Trace.Records[x.To].Kind != trace.Drop {
					t.Fatalf("a lost message ends at %s", r.Trace.Records[x.To])
				}
			}
			if x.Kind == "failure" && !x.Lost && x.To >= 0 {
				failure++
				if r.Trace.Records[x.From].Actor != trace.ActorNet || !strings.Contains(r.Trace.Records[x.To].String(), "net/failed") {
					t.Fatalf("failure from %s to %s", r.Trace.Records[x.From], r.Trace.Records[x.To])
				}
			}
		}
		if lost != 1 || failure != 1 {
			t.Fatalf("%d lost results, %d failures", lost, failure)
		}
		pg := string(Render(Input{Scenario: "x", Trace: r.Trace}))
		if !strings.Contains(pg, `class="msg result lost"`) || !strings.Contains(pg, `class="lostx"`) {
			t.Fatal("no lost arrow or cross on the page")
		}
	})
	t.Run("a delayed HTTP message is marked and labelled with its latency; the others are not", func(t *testing.T) {
		const y = `name: delayed-result
summary: The next HTTP message of a is delayed by 800ms.
mode: timed
timeout: 5
clients:
  a: {latency: 10ms}
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c1, ask: [{id: q, question: Which one, options: [x, y]}]}}
  - {at: 1s, net: {delay: a, by: 800ms}}
  - {at: 1s, a: {choose: x}}
  - {at: 1s, a: submit}
`
		r := runFile(t, "delayed-result", y, "")
		m := build(r.Trace)
		var delayed []tracemodel.Message
		for _, x := range m.msgs {
			if x.Delayed {
				delayed = append(delayed, x)
			}
		}
		if len(delayed) != 1 || delayed[0].Kind != "result" || delayed[0].Latency != 810 {
			t.Fatalf("delayed %+v\n%s", delayed, r.Transcript)
		}
		pg := string(Render(Input{Scenario: "x", Trace: r.Trace}))
		if !strings.Contains(pg, `class="msg result delayed"`) || !strings.Contains(pg, `class="dly"`) || !strings.Contains(pg, ">810ms</text>") {
			t.Fatal("the delayed arrow is not marked on the page")
		}
	})
	t.Run("a client's configured slow HTTP link is its usual latency, not a delay", func(t *testing.T) {
		m := build(library(t, "card-resubmit-after-work-continued").Trace) // a: http 2s
		for _, x := range m.msgs {
			if x.Delayed {
				t.Fatalf("%s %s marked delayed (%dms)", x.Kind, x.Dest, x.Latency)
			}
		}
	})
}

// segs is a countdown's states in order, "state@from" each.
func segs(cd *countdown) string {
	var out []string
	for _, s := range cd.segs {
		out = append(out, s.state+"@"+fmtMs(s.from))
	}
	for _, p := range cd.expired {
		out = append(out, "expired@"+fmtMs(p.t))
	}
	return strings.Join(out, " ")
}

func TestCountdowns(t *testing.T) {
	for _, c := range []struct {
		name, scenario string
		want           map[string]string // client -> states
	}{
		{"CD-4 the first edit freezes the countdown for good, across a reload; CD-6 the other client expires locally",
			"cd-edit-freezes-and-survives-reload", map[string]string{"a": "running@40ms frozen@1s frozen@2.04s", "b": "running@40ms expired@5.04s"}},
		{"CD-2 a focus pauses a pristine countdown and blur resumes it; CD-6 it expires later",
			"cd-focus-pauses-blur-resumes", map[string]string{"a": "running@40ms paused@1s running@4s expired@9s"}},
		{"CD-3 a focus before the claim handshake pauses the countdown once it starts; a blur before it undoes that",
			"cd-focus-before-handshake", map[string]string{"a": "paused@1.2s", "b": "running@1.2s expired@6.2s"}},
		{"CD-4 Take time holds the countdown, across a reload",
			"cd-take-time-survives-reload", map[string]string{"a": "running@40ms held@1s held@2.04s"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := library(t, c.scenario)
			m := build(r.Trace)
			got := map[string]string{}
			for _, cd := range m.countdowns {
				got[cd.client] = segs(cd)
			}
			for client, want := range c.want {
				if got[client] != want {
					t.Errorf("%s: countdown %q, want %q", client, got[client], want)
				}
			}
		})
	}
	t.Run("CD-1 a running countdown's local deadline is the client's clock plus remainingMs, in host time", func(t *testing.T) {
		m := build(library(t, "cd-edit-freezes-and-survives-reload").Trace)
		for _, cd := range m.countdowns {
			if cd.client == "b" && (cd.segs[0].due != 40+4970 || cd.segs[0].left != 4970) {
				t.Fatalf("%+v", cd.segs[0])
			}
		}
	})
	t.Run("a probe shows the client's own countdown: a mutant that ignores Take time is drawn running", func(t *testing.T) {
		r := library(t, "cd-take-time-survives-reload")
		opts := harness.DefaultOptions()
		opts.Mutant = "take-time-ignored"
		rm := harness.RunEntry(r.Entry, opts)
		m := build(rm.Trace)
		if len(m.countdowns) != 1 || !strings.HasPrefix(segs(m.countdowns[0]), "running@40ms held@1s running@1.5s") {
			t.Fatalf("countdown %q", segs(m.countdowns[0]))
		}
	})
	t.Run("CD-10 a clock jump shows in the client's skew", func(t *testing.T) {
		r := library(t, "cd-clock-jump-moves-local-expiry")
		pg := string(Render(Input{Scenario: "x", Trace: r.Trace}))
		if !strings.Contains(pg, `class="skew" data-client="a"`) || !strings.Contains(pg, "clock +0s → ") {
			t.Fatalf("no skew change on the page")
		}
	})
}

func TestSameInstantRecordsStandInSequenceOrder(t *testing.T) {
	r := library(t, "cd-edit-freezes-and-survives-reload")
	in := Input{Scenario: "x", Trace: r.Trace}
	p := &page{runs: []*run{newRun(in, "", "")}}
	p.layout()
	ru := p.runs[0]
	for i := 1; i < len(r.Trace.Records); i++ {
		a, b := ru.markXY[i-1], ru.markXY[i]
		if b[0] <= a[0] {
			t.Fatalf("record %d at x=%v is not right of record %d at x=%v", i, b[0], i-1, a[0])
		}
	}
}

// A huge run still fits its axis: every mark inside the plot, in sequence order.
func TestHugeRunStaysOnTheAxis(t *testing.T) {
	tr := &trace.Trace{}
	for i := 0; i < 12000; i++ {
		tr.Records = append(tr.Records, trace.Record{Seq: i, Time: int64(i/7) * 3, Actor: trace.ActorSim, Kind: trace.Note, Payload: trace.Text("n")})
	}
	p := &page{runs: []*run{newRun(Input{Trace: tr}, "", "")}}
	p.layout()
	last := -1.0
	for i := range tr.Records {
		x := p.runs[0].markXY[i][0]
		if x < plotLeft || x > p.width-rightPad || x < last {
			t.Fatalf("record %d at x=%v (previous %v, plot %v..%v)", i, x, last, plotLeft, p.width-rightPad)
		}
		last = x
	}
}
