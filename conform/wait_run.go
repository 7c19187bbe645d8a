package conform

import (
	"fmt"
	"strings"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/twosettle/twosettle/engine/mutant"
)

// WaitRequirementIDs are the requirement ids the wait profile judges: the WAIT family
// and CLAIM-3 (the host closes a claim when the foreground request settles: the close
// operation).
var WaitRequirementIDs = []string{
	"WAIT-1", "WAIT-2", "WAIT-3", "WAIT-4", "WAIT-5", "WAIT-6", "WAIT-7", "WAIT-8", "WAIT-9", "WAIT-10", "CLAIM-3",
}

// waitStepper is a host of the wait profile: a Process, or a test's host in-process.
type waitStepper interface {
	WaitStep(WaitStep) (WaitReply, error)
}

// waitRun is how a script is run: on virtual time (rt nil), compared reply by reply and
// exactly, or paced on a real clock and compared within a tolerance.
type waitRun struct {
	rt  *Tolerance
	clk clock.Clock // real-time mode's clock (clock.New() unless a test gives a mock)
}

// waitOutcome is one script run against a host.
type waitOutcome struct {
	failed    bool
	message   string   // the first difference, one line
	detail    string   // the steps up to it, the differing replies
	lost      error    // the host was lost (no verdict)
	noVerdict string   // real-time mode: the runner could not keep time (no verdict)
	maxSlack  int64    // real-time mode: the largest timing slack seen (ms)
	ids       []string // the requirement ids the failing comparison judges (waitJudge)
	refEvents [][]WaitEvent
}

// run runs steps (after a reset at 0) against h and against the reference.
func (wr waitRun) run(h waitStepper, steps []WaitStep) waitOutcome {
	var o waitOutcome
	model := newWaitModel(mutant.Set(0))
	var pc *pacer
	var rc *realtimeCheck
	if wr.rt != nil {
		pc = &pacer{clk: wr.clk}
		rc = &realtimeCheck{tol: *wr.rt}
	}
	reset := WaitStep{Op: WaitOpReset}
	model.Step(reset)
	st := newWaitState()
	if _, err := h.WaitStep(reset); err != nil {
		o.lost = err
		return o
	}
	if pc != nil {
		// Virtual time 0 is when the reset's reply is in: the host's own clock started
		// (at its reset) no later, so no event can seem early by the reply's latency.
		pc.start()
	}
	var log strings.Builder
	all := steps
	for i := 0; i < len(all); i++ {
		s := all[i]
		var sent int64
		if pc != nil {
			sent = pc.until(s.Now)
			if over := sent - s.Now; over > wr.rt.Late.Milliseconds() {
				// The runner itself did not keep time: nothing it sees now is the host's doing.
				o.noVerdict = fmt.Sprintf("no verdict: the runner sent step %d (%s) %dms after its virtual time, more than the tolerance (%s); the machine is too busy for it", i+1, s, over, *wr.rt)
				return o
			}
		}
		ref := model.Step(s)
		o.refEvents = append(o.refEvents, ref.Events)
		got, err := h.WaitStep(s)
		if err != nil {
			o.lost = err
			return o
		}
		fmt.Fprintf(&log, "  step %d: %s\n", i+1, s)
		j := waitJudge{st: st, s: s, ref: ref}
		var diff string
		var ids []string
		if rc == nil {
			diff, ids = diffWaitReply(j, got)
		} else {
			diff, ids = rc.add(j, sent, got)
			o.maxSlack = rc.maxSlack
		}
		st.observe(s, ref)
		if diff != "" {
			o.failed = true
			o.ids = ids
			o.message = fmt.Sprintf("step %d of %d (%s): %s", i+1, len(all), s, diff)
			if rc != nil {
				o.message += fmt.Sprintf("; largest timing slack seen: %dms", rc.maxSlack)
			}
			o.message += "; this comparison judges " + strings.Join(ids, ", ")
			fmt.Fprintf(&log, "    host:      %s\n    reference: %s\n", got, ref)
			o.detail = log.String()
			return o
		}
		if rc != nil && i == len(all)-1 && rc.outstanding() && len(all) < len(steps)+3 {
			// Let the last events in: one more step, late enough for them to be due.
			all = append(all[:len(all):len(all)], WaitStep{Now: max(s.Now, sent) + wr.rt.Late.Milliseconds() + 1, Op: WaitOpAdvance})
		}
	}
	return o
}

// shrinkWait removes steps from a failing script while it still fails against h (on
// virtual time), to a script where no single step can go: chunks first, then one by one.
// It returns the smaller script and its outcome.
func shrinkWait(h waitStepper, steps []WaitStep, o waitOutcome, budget int) ([]WaitStep, waitOutcome) {
	wr := waitRun{}
	tries := 0
	try := func(cand []WaitStep) bool {
		if tries >= budget {
			return false
		}
		tries++
		co := wr.run(h, cand)
		if co.lost == nil && co.failed {
			steps, o = cand, co
			return true
		}
		return false
	}
	for size := len(steps) / 2; size >= 1; size /= 2 {
		for i := 0; i+size <= len(steps); {
			cand := append(append([]WaitStep{}, steps[:i]...), steps[i+size:]...)
			if !try(cand) {
				i += size
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(steps); i++ {
			cand := append(append([]WaitStep{}, steps[:i]...), steps[i+1:]...)
			if try(cand) {
				changed = true
				i--
			}
		}
	}
	return steps, o
}

// waitCovers are the requirement ids a script exercises, judged from its steps and the
// reference's events, in WaitRequirementIDs' order.
func waitCovers(steps []WaitStep, refEvents [][]WaitEvent) []string {
	set := map[string]bool{}
	deadline := map[string]int64{}
	streamWait := map[string]string{}
	for i, s := range steps {
		var evs []WaitEvent
		if i < len(refEvents) {
			evs = refEvents[i]
		}
		kinds := map[string]bool{}
		for _, e := range evs {
			kinds[e.Event] = true
			if e.Event == WaitEventClosed && e.Reason == ReasonTimedOut {
				set["WAIT-8"] = true
			}
		}
		switch s.Op {
		case WaitOpCreate:
			set["WAIT-1"] = true
			deadline[s.Wait] = s.Now + s.TimeoutMs
		case WaitOpAttach:
			set["WAIT-3"] = true
			streamWait[s.Claim] = s.Wait
			if s.Cancelled {
				set["WAIT-7"] = true
			}
		case WaitOpPull:
			if kinds[WaitEventFrame] {
				set["WAIT-2"], set["WAIT-4"] = true, true
			} else if kinds[WaitEventEnd] && !kinds[WaitEventClosed] {
				set["WAIT-7"] = true
			}
			if d, ok := deadline[streamWait[s.Claim]]; ok && s.Now >= d {
				set["WAIT-6"] = true
			}
		case WaitOpReturn, WaitOpCancel:
			if kinds[WaitEventEnd] {
				set["WAIT-5"] = true
			}
		case WaitOpAbort:
			set["WAIT-9"] = true
		case WaitOpClose:
			set["WAIT-10"] = true
			if kinds[WaitEventEnd] {
				set["CLAIM-3"] = true
			}
		}
	}
	var out []string
	for _, id := range WaitRequirementIDs {
		if set[id] {
			out = append(out, id)
		}
	}
	return out
}

// waitResult runs one script against h and makes its report row: failures are shrunk (on
// virtual time) and written to outDir as a script file with its replay command.
func waitResult(h waitStepper, sc WaitScript, wr waitRun, cmd, outDir string) (ScenarioResult, int64) {
	start := time.Now()
	o := wr.run(h, sc.Steps)
	r := ScenarioResult{Name: sc.Name, Path: sc.Path, Seed: sc.Seed, Covers: waitCovers(sc.Steps, o.refEvents), Status: StatusPass}
	rt := ""
	if wr.rt != nil {
		rt = fmt.Sprintf(" --realtime --early %s --late %s", wr.rt.Early, wr.rt.Late)
	}
	r.Replay = waitReplay(cmd, rt, sc)
	if wr.rt != nil {
		r.Replay = "" // nothing replays a run on real timers exactly
	}
	defer func() { r.DurationMs = time.Since(start).Milliseconds() }()
	switch {
	case o.noVerdict != "":
		r.Status, r.Lost = StatusBroken, o.noVerdict
		return r, o.maxSlack
	case o.lost != nil:
		r.Status, r.Lost = StatusBroken, o.lost.Error()
		if p, ok := h.(*Process); ok {
			r.HostLog = p.Stderr()
		}
		return r, o.maxSlack
	case !o.failed:
		return r, o.maxSlack
	}
	r.Status = StatusFail
	steps := sc.Steps
	if wr.rt == nil {
		n := len(steps)
		steps, o = shrinkWait(h, steps, o, 2000)
		if len(steps) < n {
			r.Failures = append(r.Failures, fmt.Sprintf("shrunk from %d to %d steps", n, len(steps)))
		}
	}
	r.Failures = append([]string{o.message}, r.Failures...)
	// A failing script counts against the ids its (shrunk) failing comparison judges
	// only, as a projection failure does: not against every id its steps exercise.
	r.Covers = o.ids
	if wr.rt != nil {
		r.Failures = append(r.Failures, "not replayable (real time); run it again with: "+waitReplay(cmd, rt, sc))
	}
	r.Divergence = o.detail
	if outDir != "" && wr.rt == nil {
		file, err := writeWaitScript(outDir, sc, steps)
		if err != nil {
			r.Failures = append(r.Failures, "not written: "+err.Error())
		} else {
			r.Replay = waitReplay(cmd, rt, WaitScript{Path: file, Source: "file"})
		}
	}
	if p, ok := h.(*Process); ok {
		r.HostLog = p.Stderr()
	}
	return r, o.maxSlack
}

// waitReplay is the command that replays a script: its file, or its generator seed.
func waitReplay(cmd, rt string, sc WaitScript) string {
	base := "conform --profile wait" + rt + " --host " + ShellQuote(cmd)
	switch sc.Source {
	case "generated":
		return fmt.Sprintf("%s --no-library --start %d --seeds 1", base, sc.Seed)
	case "library":
		return fmt.Sprintf("%s --seeds 0 --only %s", base, ShellQuote(sc.Name))
	}
	return base + " --seeds 0 " + ShellQuote(sc.Path)
}
