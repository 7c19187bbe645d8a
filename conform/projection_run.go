package conform

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twosettle/twosettle/golden"
	"github.com/twosettle/twosettle/sessionlog"
)

// ProjectionOptions configure RunProjection.
type ProjectionOptions struct {
	Argv    []string        // the host command
	Command string          // the host command line, for replay lines
	Process ProcessOptions  // limits (Profile is set to projection)
	OutDir  string          // where shrunk failing logs are written ("" none)
	Shrink  int             // the most folds a shrink may take (0: 200)
	Ctx     context.Context // stops the run when done (nil: never): no new log is folded
	// hosts holds the host process (nil: RunProjection's own); closing it (a second
	// interrupt, interruptibleHosts) ends the fold in progress, which is then not
	// reported.
	hosts *hostSlot
}

// hostSlot is the one host process of a projection run, replaced after a loss. Close
// ends it and waits until it is reaped; no process is taken after that.
type hostSlot struct {
	mu     sync.Mutex
	cur    *Process
	closed bool
	once   sync.Once
}

// set makes p the current process; false (and p closed) when the slot is closed.
func (s *hostSlot) set(p *Process) bool {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		p.Close()
		return false
	}
	s.cur = p
	s.mu.Unlock()
	return true
}

func (s *hostSlot) get() *Process {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// Close ends the current process (bye, then SIGTERM and SIGKILL to its group) and
// returns once it is reaped; a second call waits for the first.
func (s *hostSlot) Close() {
	s.once.Do(func() {
		s.mu.Lock()
		s.closed = true
		p := s.cur
		s.mu.Unlock()
		if p != nil {
			p.Close()
		}
	})
}

// lostInARow is how many logs in a row may lose the host before a projection run stops.
const lostInARow = 3

// RunProjection folds every case on the host (one process, a new one after a loss) and
// returns the report: one result per case, the requirement rows those judged. An error
// is a host that cannot be used at all. The run stops early when o.Ctx is done (the
// fold in progress finishes on its host, no other starts, and the report says
// interrupted) or after lostInARow lost logs in a row.
func RunProjection(cases []ProjectionCase, o ProjectionOptions) (*Report, error) {
	o.Process.Profile = ProfileProjection
	if o.Shrink <= 0 {
		o.Shrink = 200
	}
	ctx := o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	ids, notes := ProfileRequirements(ProfileProjection)
	rep := &Report{Protocol: Protocol, Command: o.Command, Profile: ProfileProjection, Judged: ids, JudgedNotes: notes}
	first, err := Start(o.Argv, o.Process)
	if err != nil {
		return nil, err
	}
	rep.Host = first.Info()
	hosts := o.hosts
	if hosts == nil {
		hosts = &hostSlot{}
	}
	defer hosts.Close()
	if !hosts.set(first) {
		rep.Interrupted = true
		return rep, nil
	}
	lost := 0
	for i, c := range cases {
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		p := hosts.get()
		if p.Lost() != nil {
			p.Close()
			np, err := Start(o.Argv, o.Process)
			if err != nil && ctx.Err() != nil {
				rep.Interrupted = true
				break
			}
			if err != nil {
				rep.Scenarios = append(rep.Scenarios, ScenarioResult{Name: c.Name, Path: c.Path, Seed: c.Seed, Status: StatusBroken,
					Lost: fmt.Sprintf("the host could not be restarted (%d logs not folded): %v", len(cases)-i, err)})
				break
			}
			if !hosts.set(np) {
				rep.Interrupted = true
				break
			}
			p = np
		}
		r := foldCase(p, c, o)
		if ctx.Err() != nil && r.Status == StatusBroken {
			rep.Interrupted = true // the interrupt closed the host: no verdict on this log
			break
		}
		rep.Scenarios = append(rep.Scenarios, r)
		if r.Status != StatusBroken {
			lost = 0
		} else if lost++; lost >= lostInARow && i+1 < len(cases) {
			rep.Scenarios = append(rep.Scenarios, ScenarioResult{Name: fmt.Sprintf("(%d more logs)", len(cases)-i-1), Status: StatusBroken,
				Lost: fmt.Sprintf("not folded: the host was lost %d logs in a row", lost)})
			break
		}
	}
	return rep, nil
}

// foldCase folds one case on p and judges it.
func foldCase(p *Process, c ProjectionCase, o ProjectionOptions) (res ScenarioResult) {
	start := time.Now()
	res = ScenarioResult{Name: c.Name, Path: c.Path, Seed: c.Seed}
	defer func() { res.DurationMs = time.Since(start).Milliseconds() }()
	ref := foldReference(c.Log)
	lost := func(err error) ScenarioResult {
		res.Status = StatusBroken
		res.Lost = err.Error()
		res.HostLog = p.Stderr()
		return res
	}
	diff, judged, err := foldOn(p, ref)
	if err != nil {
		return lost(err)
	}
	second := false // the difference appeared only when the log was folded again
	if diff == nil && c.Replay {
		// PROJ-12: the same log folded again gives the same views.
		if diff, _, err = foldOn(p, ref); err != nil {
			return lost(err)
		}
		if diff != nil {
			diff.IDs = uniqueSorted(append(diff.IDs, "PROJ-12"))
			second = true
		} else {
			judged = append(judged, "PROJ-12")
		}
	}
	if diff == nil {
		res.Status = StatusPass
		res.Covers = uniqueSorted(judged)
		return res
	}
	res.Status = StatusFail
	res.Covers = diff.IDs
	where := "fold-start"
	if diff.Index >= 0 {
		e := c.Log.Events[diff.Index]
		where = "event #" + strconv.Itoa(e.Seq) + " (" + e.Type() + ")"
	}
	res.Failures = append(res.Failures, fmt.Sprintf("the view after %s is not the reference fold's; this comparison judges %s", where, strings.Join(diff.IDs, ", ")))
	res.Divergence = diff.describe(c.Log, "host's", func(i int) string { return "line " + strconv.Itoa(i+2) + " of its log file" })
	// Shrink to the fewest events that still differ, and write that log. A log that only
	// differs on its second fold is written whole: a shrink folds each candidate once.
	small, sdiff := c.Log, diff
	if second {
		res.Failures = append(res.Failures, "the first fold of this log gave the reference views; the second, on the same process, did not (PROJ-12); not shrunk")
	} else if small, sdiff, err = shrinkLog(p, c.Log, diff, o.Shrink); err != nil {
		return lost(err)
	}
	if len(small.Events) < len(c.Log.Events) {
		res.Failures = append(res.Failures, fmt.Sprintf("shrunk from %d to %d events, still differing after %s", len(c.Log.Events), len(small.Events), sdiffWhere(small, sdiff)))
	}
	if o.OutDir != "" {
		file := filepath.Join(o.OutDir, "projection-"+safeName(c.Name)+".jsonl")
		b, err := sessionlog.Append(nil, small)
		if err == nil {
			err = golden.Write(file, b)
		}
		if err != nil {
			res.Failures = append(res.Failures, "not written: "+err.Error())
		} else {
			res.Failures = append(res.Failures, "wrote "+file)
			res.Replay = "conform --profile projection --host " + ShellQuote(o.Command) + " " + ShellQuote(file)
		}
	}
	if res.Replay == "" && strings.HasPrefix(c.Name, "edge/") {
		res.Replay = "conform --profile projection --host " + ShellQuote(o.Command) + " --library=false --seeds 0 --edge 1 --start " + strconv.FormatUint(c.Seed, 10)
	}
	return res
}

func sdiffWhere(l *sessionlog.Log, d *viewDiff) string {
	if d.Index < 0 {
		return "fold-start"
	}
	return "event #" + strconv.Itoa(l.Events[d.Index].Seq)
}

// safeName makes a case name a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '-'
	}, s)
}
