package conform

import (
	"sort"
	"strings"
	"time"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

// RunClientScenario runs s with the reference host and every client of the scenario on
// the client processes of opts.Pool, and against the reference engine at the same seed,
// and judges the client's run: the scenario's expectations, the oracle and the
// comparison with the reference transcript as ComparableClient reads it. A scenario with
// no client but hold: true answerers (harness fixtures) observes no UI: it is not
// applicable.
func RunClientScenario(s *scenarios.Scenario, path string, opts Options) Run {
	plan := harness.Compile(s, opts.Seed)
	res := ScenarioResult{Name: s.Name, Path: path, Seed: plan.Seed, Covers: append([]string(nil), s.Covers...)}
	res.Replay = replayClientCommand(opts.Command, path, opts.Seed)
	uis := 0 // the clients the process plays (a hold: true answerer stays the harness's fixture)
	for _, c := range plan.Clients {
		if !plan.Holding[c.Name] {
			uis++
		}
	}
	if uis == 0 {
		res.Status, res.Missing = StatusNotApplicable, []string{"a client (the scenario has no answer UI)"}
		return Run{Result: res}
	}
	var procs []*Process
	factory := func(cfg wire.ClientConfig) (wire.ClientPort, error) {
		c, err := opts.Pool.ClientFactory(cfg)
		if pc, ok := c.(*ProcessClient); ok {
			procs = append(procs, pc.Process())
		}
		return c, err
	}
	var verdict oracle.Verdict
	judge := func(tr *trace.Trace, s *scenarios.Scenario) harness.Verdict {
		verdict = oracle.Check(tr, harness.OracleOptions(s))
		return harness.Verdict{Text: verdict.String(), Status: verdict.Status.String()}
	}
	start := time.Now()
	got := &harness.Result{}
	harness.RunScenario(got, s, harness.Options{Seed: opts.Seed, Oracle: judge, Client: factory, AnyRefusalText: true, AnyHintText: true})
	res.DurationMs = time.Since(start).Milliseconds()
	clientLog := func() string {
		var b strings.Builder
		for _, p := range procs {
			if t := p.Stderr(); t != "" {
				b.WriteString(t)
			}
		}
		return b.String()
	}
	if got.Lost != nil {
		res.Status, res.Lost, res.HostLog = StatusBroken, got.Lost.Err.Error(), clientLog()
		for _, f := range got.Failures {
			if strings.Contains(f.Msg, " was lost: ") {
				res.Lost = f.Msg // names the client that was lost
			}
		}
		// The Process words its failures for a host; here every process is a client (the
		// reference host runs in-process and is never lost).
		res.Lost = strings.ReplaceAll(res.Lost, "the host", "the client")
		return Run{Result: res}
	}
	ref := &harness.Result{}
	harness.RunScenario(ref, s, harness.Options{Seed: opts.Seed})
	if got.Invalid != nil {
		res.Failures = append(res.Failures, "the client's run could not be judged: "+firstLine(got.Invalid.Error()))
	}
	for _, f := range got.Failures {
		res.Failures = append(res.Failures, f.String())
	}
	for _, b := range verdict.Violations {
		res.Violated = append(res.Violated, b.Invariant)
	}
	sort.Strings(res.Violated)
	run := Run{}
	if got.Trace != nil && ref.Trace != nil {
		mine := ComparableClient(s.Name, got.Trace)
		if d := Divergence(ComparableClient(s.Name, ref.Trace), mine); d != "" {
			res.Divergence = strings.ReplaceAll(d, "the host", "the client")
			res.Failures = append(res.Failures, "the transcript differs from the reference engine's; this comparison judges "+strings.Join(clientIDs(s.Covers), ", "))
		}
		if opts.Verbose {
			run.Transcript = mine
		}
	}
	res.Status = StatusPass
	if len(res.Failures) > 0 {
		res.Status, res.HostLog = StatusFail, clientLog()
	}
	run.Result = res
	return run
}

// replayClientCommand is the command that reruns exactly one scenario with the same
// client.
func replayClientCommand(cmd, path string, seed uint64) string {
	c := replayCommand(cmd, path, seed)
	return strings.Replace(c, "conform --host ", "conform --client ", 1)
}

// ComparableClient renders the transcript of tr as a client conformance comparison
// reads it (docs/PROTOCOL.md, "Clients"): Comparable with introspection (the host is the
// reference), and what a UI may word its own way compared through the state, not its
// text: the ids a client mints (stream and RPC ids) are renamed by order of first
// appearance (⟨s1⟩, ⟨r1⟩, …), a card's hint is compared as present or absent, and the
// verdict line that heads a row's unanswered transcript as present or absent.
func ComparableClient(name string, tr *trace.Trace) []byte {
	cp := &trace.Trace{Seed: tr.Seed, Records: make([]trace.Record, len(tr.Records)), Final: tr.Final}
	streams, rpcs := newRenamer("s"), newRenamer("r")
	for i, r := range tr.Records {
		switch p := r.Payload.(type) {
		case wire.OpenStream:
			streams.add(p.StreamID)
		case wire.SendResult:
			rpcs.add(p.RPCID)
		case wire.SendCall:
			rpcs.add(p.RPCID)
		case trace.Snapshot:
			cs := make([]wire.ClientState, len(p.Clients))
			for j, c := range p.Clients {
				cs[j] = uiNeutral(c)
			}
			p.Clients = cs
			r.Payload = p
		}
		cp.Records[i] = r
	}
	cp.Final.Clients = make([]wire.ClientState, len(tr.Final.Clients))
	for j, c := range tr.Final.Clients {
		cp.Final.Clients[j] = uiNeutral(c)
	}
	return []byte(rename(string(Comparable(name, cp, true)), streams, rpcs))
}

// uiNeutral replaces what a UI words its own way by markers: a hint by "(hint)", the
// verdict that heads an unanswered transcript by "(verdict)".
func uiNeutral(c wire.ClientState) wire.ClientState {
	if len(c.Cards) > 0 {
		cards := append([]wire.CardState(nil), c.Cards...)
		for i := range cards {
			if cards[i].Hint != "" {
				cards[i].Hint = "(hint)"
			}
		}
		c.Cards = cards
	}
	if len(c.Rows) > 0 {
		rows := append([]wire.RowState(nil), c.Rows...)
		for i := range rows {
			t := rows[i].Transcript
			if len(t) > 0 && !strings.HasPrefix(t[0], "- ") && !strings.HasPrefix(t[0], "IN: ") && !strings.Contains(t[0], ": ") {
				rows[i].Transcript = append([]string{"(verdict)"}, t[1:]...)
			}
		}
		c.Rows = rows
	}
	return c
}

// clientIDs are the ids a client's transcript comparison judges: the client-side ids the
// scenario covers (docs/REQUIREMENTS.md side C), else all it covers.
func clientIDs(covers []string) []string {
	side := map[string]string{}
	for _, q := range scenarios.Requirements() {
		side[q.ID] = q.Side
	}
	var out []string
	for _, id := range covers {
		if side[id] == "C" {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return covers
	}
	return out
}
