package timeline

import (
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/trace"
	"github.com/twosettle/twosettle/tracemodel"
)

// Call states, as the bars show them.
const (
	stateOpen      = "open"
	stateContinued = "continued"
	stateSettled   = "settled"
	stateRemoved   = "removed"
	stateEnded     = "ended" // a call no view tracks whose tool result was an error
)

// model is what the picture shows, derived from the records and the final state only.
type model struct {
	end    int64 // the last instant drawn
	lanes  []lane
	marks  []mark
	calls  []*call
	faults []fault
	// msgs are the messages between lanes (arrows), countdowns the clients' local
	// countdowns, rel each record's relation keys (what a click lists as caused by it).
	msgs       []tracemodel.Message
	countdowns []*countdown
	rel        [][]string
	// times is every instant the axis must show (sorted, unique), for the gap breaks.
	times []int64
}

type lane struct {
	actor string
	rows  int // stacked mark rows in use
}

type mark struct {
	rec  int // index in the records
	lane int
	row  int
	t    int64
}

// phase is one state of a call from an instant on; rec is the record that showed it.
type phase struct {
	state string
	from  int64
	rec   int
}

// point is one instant on a call's bar: a deadline, a timer, an answer, an expiry.
type point struct {
	kind string // deadline, timer, answer, expired, closed
	t    int64
	rec  int
	text string
}

// claim is one client's claim on a call's wait: its attachWait stream, from the host's
// stream-open to the end of that stream (host end/error, cancel, disconnect, restart).
type claim struct {
	client   string
	from, to int64
	fromRec  int
	toRec    int // -1: still open at the end of the run
}

type call struct {
	session, id string
	questions   []string
	first       int64
	firstRec    int
	inView      bool // some published view of its Session tracked it
	phases      []phase
	points      []point
	claims      []claim
}

func (c *call) key() string { return c.session + "/" + c.id }

type fault struct {
	t     int64
	rec   int
	label string
	armed bool
}

type builder struct {
	m     *model
	run   *tracemodel.Run
	lanes map[string]int
	times map[int64]bool
	// calls maps the model's calls to the bars drawn for them (byKey: by session/call).
	calls map[*tracemodel.Call]*call
	byKey map[string]*call
	skew  map[string]int64 // each client's last clock reading minus the host's
	// focusFirst is a client's focus before any countdown started (its card, "" for the
	// seat): it pauses the countdown that starts next (CD-3)
	focusFirst map[string]string
}

// build draws the model of the trace (package tracemodel): the calls with their
// lifecycle, marks and claims, the faults and restarts, the messages; what is the
// picture's own (lanes, marks, the axis's instants, the clients' countdowns) it adds.
func build(tr *trace.Trace) *model {
	run := tracemodel.Fold(tr)
	b := &builder{m: &model{end: run.End}, run: run, lanes: map[string]int{}, times: map[int64]bool{0: true},
		calls: map[*tracemodel.Call]*call{}, byKey: map[string]*call{}, skew: map[string]int64{}, focusFirst: map[string]string{}}
	b.lanesFor(tr)
	for _, mc := range run.Calls {
		c := drawCall(mc)
		b.calls[mc] = c
		b.byKey[c.key()] = c
		b.m.calls = append(b.m.calls, c)
	}
	restarts := run.Restarts
	for i := range tr.Records {
		r := tr.Records[i]
		b.times[r.Time] = true
		if li, ok := b.lanes[r.Actor]; ok {
			b.m.marks = append(b.m.marks, mark{rec: i, lane: li, t: r.Time})
		}
		switch p := r.Payload.(type) {
		case trace.Injected:
			b.m.faults = append(b.m.faults, fault{t: r.Time, rec: i, label: faultLabel(p), armed: p.Armed})
		case trace.Snapshot:
			b.probeCountdowns(i, r, p.Clients)
		}
		if len(restarts) > 0 && restarts[0].Rec == i {
			if !restarts[0].Crash {
				b.m.faults = append(b.m.faults, fault{t: r.Time, rec: i, label: "restart"})
			}
			restarts = restarts[1:]
		}
		if trace.IsClient(r.Actor) {
			b.clientRecord(i, r)
		}
	}
	end := b.m.end
	b.times[end] = true
	for _, cd := range b.m.countdowns {
		if s := cd.cur(); s != nil {
			s.to = end
		}
		for _, s := range cd.segs {
			if s.state == cdRunning {
				b.times[min(s.due, end)] = true
			}
		}
	}
	b.m.msgs = run.Messages()
	b.m.rel = relations(tr.Records, b)
	for _, c := range b.m.calls {
		for _, p := range c.points {
			b.times[p.t] = true
		}
	}
	for t := range b.times {
		b.m.times = append(b.m.times, t)
	}
	sort.Slice(b.m.times, func(i, j int) bool { return b.m.times[i] < b.m.times[j] })
	return b.m
}

// drawCall is the bar of one call of the model: its phases, its marks as points with
// their captions, its claims.
func drawCall(mc *tracemodel.Call) *call {
	c := &call{session: mc.Session, id: mc.ID, questions: mc.Questions(), first: mc.At, firstRec: mc.Rec, inView: mc.InView}
	for _, ph := range mc.Phases {
		c.phases = append(c.phases, phase{state: ph.State.String(), from: ph.At, rec: ph.Rec})
	}
	for _, mk := range mc.Marks {
		pt := point{t: mk.At, rec: mk.Rec}
		switch mk.Kind {
		case tracemodel.Deadline:
			pt.kind, pt.text = "deadline", "wait deadline"
		case tracemodel.Timer:
			pt.kind, pt.text = "timer", "timer armed"
		case tracemodel.Answer:
			pt.kind, pt.text = "answer", "answer from "+mk.Client
			if mk.Client == "" {
				pt.text = "answer from the service (" + mk.Direct + ")"
			}
		case tracemodel.Expired:
			pt.kind, pt.text = "expired", "wait expired"
		case tracemodel.Closed:
			pt.kind, pt.text = "closed", "wait closed ("+mk.Reason+")"
		}
		c.points = append(c.points, pt)
	}
	for _, s := range mc.Claims {
		c.claims = append(c.claims, claim{client: s.Client, from: s.OpenAt, to: s.EndAt, fromRec: s.Open, toRec: s.End})
	}
	return c
}

// lanesFor orders the lanes: the host, the clients (the final state's order, then any
// other client actor as it appears), the model, the network, the simulator.
func (b *builder) lanesFor(tr *trace.Trace) {
	add := func(a string) {
		if _, ok := b.lanes[a]; !ok {
			b.lanes[a] = len(b.m.lanes)
			b.m.lanes = append(b.m.lanes, lane{actor: a})
		}
	}
	seen := map[string]bool{}
	for _, r := range tr.Records {
		seen[r.Actor] = true
	}
	if seen[trace.ActorHost] || len(tr.Final.Host.Sessions) > 0 {
		add(trace.ActorHost)
	}
	for _, c := range tr.Final.Clients {
		add(c.Client)
	}
	for _, r := range tr.Records {
		if trace.IsClient(r.Actor) {
			add(r.Actor)
		}
	}
	for _, a := range []string{trace.ActorModel, trace.ActorNet, trace.ActorSim, trace.ActorUser} {
		if seen[a] {
			add(a)
		}
	}
}

// knownAt is the bar of call (session, id) if the trace had shown it by record i.
func (b *builder) knownAt(session, id string, i int) *call {
	if c := b.byKey[session+"/"+id]; c != nil && c.firstRec <= i {
		return c
	}
	return nil
}

// callOf is the bar of the model's call c (nil for none).
func (b *builder) callOf(c *tracemodel.Call) *call {
	if c == nil {
		return nil
	}
	return b.calls[c]
}

// faultLabel is the short label of a fault rule: its kind and target.
func faultLabel(f trace.Injected) string {
	s := f.Kind
	if f.Target != "" {
		s += " " + f.Target
	}
	if f.Point != "" {
		s += " @" + f.Point
	}
	if f.Armed {
		s = "arm " + s
	}
	return s
}

// verdict is the oracle's verdict as its canonical text gives it.
type verdict struct {
	status     string // ok, violation, unknown, "" (none ran)
	reason     string
	violations []violation
}

type violation struct {
	invariant string
	rec       int // record Seq; -1 for the final state
	message   string
	witness   []int
	lines     []string
}

// parseVerdict reads oracle.Verdict's canonical text (the transcript's last lines):
//
//	oracle: violation
//	  INV-GW-CANCEL at 0042: message
//	    0031 t=… witness line
func parseVerdict(text string) verdict {
	var v verdict
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "oracle: ") {
		return v
	}
	head := strings.TrimPrefix(lines[0], "oracle: ")
	v.status, v.reason, _ = strings.Cut(head, ": ")
	for _, l := range lines[1:] {
		switch {
		case strings.HasPrefix(l, "    ") && len(v.violations) > 0:
			w := &v.violations[len(v.violations)-1]
			line := strings.TrimPrefix(l, "    ")
			w.lines = append(w.lines, line)
			if n, err := strconv.Atoi(strings.SplitN(line, " ", 2)[0]); err == nil {
				w.witness = append(w.witness, n)
			}
		case strings.HasPrefix(l, "  "):
			inv, rest, _ := strings.Cut(strings.TrimPrefix(l, "  "), " at ")
			at, msg, _ := strings.Cut(rest, ": ")
			x := violation{invariant: inv, message: msg, rec: -1}
			if n, err := strconv.Atoi(at); err == nil {
				x.rec = n
			}
			v.violations = append(v.violations, x)
		}
	}
	return v
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
