package timeline

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/twosettle/twosettle/trace"
)

// Input is one run to draw.
type Input struct {
	Scenario string // the scenario's name
	Summary  string // its one-line summary
	Source   string // where it came from (a file path), shown in the header
	Seed     uint64
	Mutant   string // the named engine bug the run had switched on, if any
	Host     string // the host process that ran it ("" for the reference engine in-process)
	Client   string // the client process every client was ("" for the reference client in-process)
	Trace    *trace.Trace
	// Verdict is the oracle's canonical verdict text ("oracle: ok", "oracle: violation\n
	// INV-… at 0042: …"); "" when no oracle ran.
	Verdict string
	// Notes are other checks' outcomes to show in the header (failed expectations).
	Notes []string
}

// Layout constants (px).
const (
	plotLeft   = 150.0
	rightPad   = 24.0
	laneRowH   = 9.0
	lanePad    = 8.0
	maxRows    = 6
	markGap    = 6.0
	faultRowH  = 13.0
	faultRows  = 3
	callLabelH = 14.0
	barH       = 10.0
	claimRowH  = 10.0
	callPad    = 9.0
	runHeadH   = 20.0
	seqStep    = 7.0 // px between two records of one instant (the sequence sub-axis)
)

// Render returns the page of one run.
func Render(in Input) []byte {
	p := &page{}
	p.runs = []*run{newRun(in, "", "")}
	p.build()
	return p.b.Bytes()
}

// run is one run on the page, with its layout.
type run struct {
	in     Input
	tr     *trace.Trace
	m      *model
	v      verdict
	hit    map[int]string // record seq -> hit (the violation's record) or wit (its witness)
	prefix string         // record element ids: prefix + "r0042"
	label  string         // "A", "B" on a page of two runs, "" for one
	div    int            // the first divergent record's index, -1 for none

	top, bottom float64
	laneY       []float64 // top of each lane
	laneH       []float64
	callsY      float64
	callY       []float64          // top of each call block
	markXY      map[int][2]float64 // by record index
	rank        []int              // each record's slot within its instant
}

func newRun(in Input, prefix, label string) *run {
	tr := in.Trace
	if tr == nil {
		tr = &trace.Trace{}
	}
	r := &run{in: in, tr: tr, m: build(tr), v: parseVerdict(in.Verdict), hit: map[int]string{}, prefix: prefix, label: label, div: -1}
	for i, x := range r.v.violations {
		if x.rec >= 0 {
			if _, ok := r.hit[x.rec]; !ok || i == 0 {
				r.hit[x.rec] = "hit"
			}
		}
		for _, w := range x.witness {
			if _, ok := r.hit[w]; !ok {
				r.hit[w] = "wit"
			}
		}
	}
	r.rank = make([]int, len(tr.Records))
	for i := range tr.Records {
		if i > 0 && tr.Records[i-1].Time == tr.Records[i].Time {
			r.rank[i] = r.rank[i-1] + 1
		}
	}
	return r
}

type page struct {
	runs []*run
	ax   axis
	b    bytes.Buffer
	// against is the comparison of two runs (nil on a page of one run)
	against *comparison

	width, height float64
	faultY        float64 // top of the fault labels
	nFaults       int
	axisY         float64
}

func (p *page) build() {
	p.layout()
	p.html()
}

// id is the element id of record rec (an index) of run r.
func (r *run) id(rec int) string {
	if rec < 0 || rec >= len(r.tr.Records) {
		return ""
	}
	return r.prefix + recID(r.tr.Records[rec].Seq)
}

// idSeq is the element id of the record with sequence number seq.
func (r *run) idSeq(seq int) string { return r.prefix + recID(seq) }

func (p *page) layout() {
	// one axis for every run: the union of their instants, each instant as wide as the
	// busiest run needs it
	count := map[int64]int{}
	times := map[int64]bool{}
	for _, r := range p.runs {
		c := map[int64]int{}
		for _, rec := range r.tr.Records {
			c[rec.Time]++
		}
		for t, n := range c {
			count[t] = max(count[t], n)
		}
		for _, t := range r.m.times {
			times[t] = true
		}
		p.nFaults += len(r.m.faults)
	}
	var ts []int64
	for t := range times {
		ts = append(ts, t)
	}
	sortInts(ts)
	if len(ts) == 0 {
		ts = []int64{0}
	}
	slots := 0
	for _, n := range count {
		slots += max(0, n-1)
	}
	w := max(1000.0, float64(len(ts))*9+float64(slots)*seqStep)
	w = min(w, 9000)
	// the sub-axes take at most 60% of the width, whatever the run's size
	step := seqStep
	if free := w * 0.6; float64(slots)*step > free {
		step = free / float64(slots)
	}
	extra := make([]float64, len(ts))
	for i, t := range ts {
		extra[i] = float64(max(0, count[t]-1)) * step
	}
	p.width = plotLeft + w + rightPad
	p.ax = newAxis(ts, extra, plotLeft, plotLeft+w, step)
	y := 6.0
	p.faultY = y
	if p.nFaults > 0 {
		y += faultRows*faultRowH + 4
	}
	p.axisY = y + 14
	y = p.axisY + 10
	for _, r := range p.runs {
		y = p.layoutRun(r, y)
	}
	p.height = y + 8
}

func sortInts(xs []int64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// layoutRun places run r from y down and returns the y below it.
func (p *page) layoutRun(r *run, y float64) float64 {
	r.top = y
	if r.label != "" {
		y += runHeadH
	}
	// stack the marks of each lane in rows so that marks at nearby instants stay apart
	last := make([][]float64, len(r.m.lanes))
	r.markXY = map[int][2]float64{}
	for i := range r.m.marks {
		mk := &r.m.marks[i]
		x := p.ax.xk(mk.t, r.rank[mk.rec])
		rows := last[mk.lane]
		row := -1
		for k, lx := range rows {
			if x-lx >= markGap {
				row = k
				break
			}
		}
		if row < 0 && len(rows) < maxRows {
			rows = append(rows, -1e9)
			row = len(rows) - 1
		}
		if row < 0 { // every row is busy here: the least recent one
			row = 0
			for k := range rows {
				if rows[k] < rows[row] {
					row = k
				}
			}
		}
		rows[row] = x
		last[mk.lane] = rows
		mk.row = row
	}
	for li := range r.m.lanes {
		r.m.lanes[li].rows = max(1, len(last[li]))
		h := lanePad*2 + float64(r.m.lanes[li].rows)*laneRowH
		if trace.IsClient(r.m.lanes[li].actor) {
			h = max(h, 34) // room for the clock line
		}
		r.laneY = append(r.laneY, y)
		r.laneH = append(r.laneH, h)
		y += h
	}
	for _, mk := range r.m.marks {
		r.markXY[mk.rec] = [2]float64{p.ax.xk(mk.t, r.rank[mk.rec]), r.laneY[mk.lane] + lanePad + laneRowH/2 + float64(mk.row)*laneRowH}
	}
	y += 8
	r.callsY = y
	y += 18
	for _, c := range r.m.calls {
		r.callY = append(r.callY, y)
		y += callLabelH + barH + float64(len(claimClients(c))+len(r.countdownsOf(c)))*claimRowH + callPad
	}
	if len(r.m.calls) == 0 {
		y += 16
	}
	r.bottom = y
	return y + 6
}

func (r *run) countdownsOf(c *call) []*countdown {
	var out []*countdown
	for _, cd := range r.m.countdowns {
		if cd.call == c && len(cd.segs)+len(cd.expired) > 0 {
			out = append(out, cd)
		}
	}
	return out
}

func claimClients(c *call) []string {
	var out []string
	for _, cl := range c.claims {
		if !contains(out, cl.client) {
			out = append(out, cl.client)
		}
	}
	return out
}

func (r *run) line(rec int) string {
	if rec < 0 || rec >= len(r.tr.Records) {
		return "final state (t=" + strconv.FormatInt(r.m.end, 10) + ")"
	}
	return r.tr.Records[rec].String()
}

func (p *page) w(ss ...string) {
	for _, s := range ss {
		p.b.WriteString(s)
	}
}

func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

func recID(seq int) string {
	s := strconv.Itoa(seq)
	for len(s) < 4 {
		s = "0" + s
	}
	return "r" + s
}

func (p *page) html() {
	first := p.runs[0]
	title := first.in.Scenario
	if title == "" {
		title = "run"
	}
	if p.against != nil {
		title = p.against.title()
	}
	p.w("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>", esc("timeline: "+title), "</title>\n<style>", css, kindCSS, "</style>\n</head>\n<body>\n")
	p.w("<h1>", esc(title), "</h1>\n")
	for _, r := range p.runs {
		p.runHeader(r)
	}
	if p.against != nil {
		p.divergenceBox()
	}
	p.legend()
	p.toolbar()
	p.w("<div class=\"chart\" id=\"chart\" tabindex=\"0\">\n")
	p.svg()
	p.w("</div>\n<div id=\"panel\" class=\"panel\" hidden=\"hidden\"></div>\n")
	for _, r := range p.runs {
		p.records(r)
	}
	p.w("<script>//<![CDATA[\n", script, "//]]></script>\n")
	p.w("</body>\n</html>\n")
}

func (p *page) runHeader(r *run) {
	in := r.in
	if r.label != "" {
		name := in.Scenario
		if name == "" {
			name = "run"
		}
		p.w("<h2 class=\"runh\"><span class=\"tag\">", r.label, "</span> ", esc(name), "</h2>\n")
	}
	if in.Summary != "" {
		p.w("<p class=\"sub\">", esc(in.Summary), "</p>\n")
	}
	meta := []string{"seed " + strconv.FormatUint(in.Seed, 10)}
	if in.Mutant != "" {
		meta = append(meta, "mutant "+in.Mutant)
	}
	if in.Host != "" {
		meta = append(meta, "host "+in.Host)
	}
	if in.Client != "" {
		meta = append(meta, "client "+in.Client)
	}
	meta = append(meta, count(len(r.tr.Records), "record"), "virtual time 0s to "+fmtMs(r.m.end),
		count(len(r.m.calls), "question call"), count(len(r.m.msgs), "message"), count(len(r.m.faults), "fault"))
	if in.Source != "" {
		meta = append(meta, in.Source)
	}
	p.w("<p class=\"meta\">", esc(strings.Join(meta, " · ")), "</p>\n")
	p.verdictBox(r)
	for _, n := range in.Notes {
		// a note of several lines (a golden's diff) folds under its first line, its
		// lines kept as lines
		first, rest, multi := strings.Cut(n, "\n")
		if !multi {
			p.w("<p class=\"notes\">", esc(n), "</p>\n")
			continue
		}
		p.w("<details class=\"notes\"><summary>", esc(first), "</summary><pre>", esc(rest), "</pre></details>\n")
	}
}

func (p *page) verdictBox(r *run) {
	v := r.v
	tag := ""
	if r.label != "" {
		tag = r.label + " "
	}
	switch v.status {
	case "":
		p.w("<div class=\"verdict none\"><b>", tag, "no oracle verdict</b></div>\n")
		return
	case "ok":
		p.w("<div class=\"verdict ok\"><b>", tag, "oracle: ok</b>: every invariant held</div>\n")
		return
	case "unknown":
		p.w("<div class=\"verdict unknown\"><b>", tag, "oracle: unknown</b>: ", esc(v.reason), "</div>\n")
		return
	case "violation":
	default:
		p.w("<div class=\"verdict unknown\"><b>", tag, "oracle: ", esc(v.status), "</b></div>\n")
		return
	}
	p.w("<div class=\"verdict violation\"><b>", tag, "oracle: violation</b>")
	for _, x := range v.violations {
		p.w("<div><b>", esc(x.invariant), "</b> at ")
		if x.rec >= 0 {
			p.w("<a href=\"#", r.idSeq(x.rec), "\">record ", recID(x.rec)[1:], "</a>")
			p.w(" (t=", esc(fmtMs(r.recTime(x.rec))), ")")
		} else {
			p.w("the final state")
		}
		p.w(": ", esc(x.message))
		if len(x.lines) > 0 {
			p.w("<pre>", esc(strings.Join(x.lines, "\n")), "</pre>")
		}
		p.w("</div>")
	}
	p.w("</div>\n")
}

func (r *run) recTime(seq int) int64 {
	for _, rec := range r.tr.Records {
		if rec.Seq == seq {
			return rec.Time
		}
	}
	return r.m.end
}

// recIndex is the index of the record with sequence number seq, -1 if none.
func (r *run) recIndex(seq int) int {
	if seq >= 0 && seq < len(r.tr.Records) && r.tr.Records[seq].Seq == seq {
		return seq
	}
	for i, rec := range r.tr.Records {
		if rec.Seq == seq {
			return i
		}
	}
	return -1
}

func (p *page) legend() {
	p.w("<div class=\"legend\">",
		"<span><i style=\"background:#fff\"></i>in (delivered to the actor)</span>",
		"<span><i style=\"background:#3e4c59\"></i>out (emitted)</span>",
		"<span><i style=\"background:#e12d39\"></i>fault</span>",
		"<span><i style=\"background:#f0b429\"></i>drop</span>",
		"<span><i style=\"background:#cf1124;border-radius:0\"></i>reject</span>",
		"<span><i style=\"background:#a368fc\"></i>probe</span>",
		"<span><i style=\"background:#9aa5b1;border:0\"></i>sched / note</span>",
		"<span class=\"kind\" data-kinds=\"delivery\" title=\"click to hide or show these arrows\"><b class=\"ln\" style=\"border-color:#2f6fde\"></b>delivery</span>",
		"<span class=\"kind\" data-kinds=\"frame connect\" title=\"click to hide or show these arrows\"><b class=\"ln\" style=\"border-color:#b8c2cc\"></b>frame</span>",
		"<span class=\"kind\" data-kinds=\"result\" title=\"click to hide or show these arrows\"><b class=\"ln\" style=\"border-color:#2d8a5f\"></b>$events/result</span>",
		"<span class=\"kind\" data-kinds=\"cancel\" title=\"click to hide or show these arrows\"><b class=\"ln\" style=\"border-color:#d64545\"></b>cancel</span>",
		"<span class=\"kind\" data-kinds=\"rpc reply failure\" title=\"click to hide or show these arrows\"><b class=\"ln\" style=\"border-color:#8e44ad\"></b>RPC / reply</span>",
		"<span class=\"kind\" data-kinds=\"claim release\" title=\"click to hide or show these arrows\"><b class=\"ln\" style=\"border-color:#14919b\"></b>claim stream</span>",
		"<span><b class=\"ln\" style=\"border-color:#cf1124;border-style:dashed\"></b>✕ lost</span>",
		"<span><b class=\"ln\" style=\"border-color:#e8590c;border-width:3px\"></b>delayed</span>",
		"<span><i style=\"background:#5b9cf5;border-radius:0\"></i>open</span>",
		"<span><i style=\"background:#f7b23b;border-radius:0\"></i>continued (pending)</span>",
		"<span><i style=\"background:#3f9142\"></i>settled</span>",
		"<span><i style=\"background:#7b8794\"></i>removed</span>",
		"<span><i style=\"background:#27ab83;border-radius:0\"></i>claim</span>",
		"<span><i style=\"background:#4dabf7;border-radius:0\"></i>countdown running</span>",
		"<span><i style=\"background:#a5d8ff;border-radius:0\"></i>paused (focus)</span>",
		"<span><i style=\"background:#adb5bd;border-radius:0\"></i>frozen (edit)</span>",
		"<span><i style=\"background:#9775fa;border-radius:0\"></i>held (Take time)</span>",
		"<span><i style=\"background:#cf1124;border-radius:0;width:3px\"></i>wait deadline</span>",
		"<span><i style=\"background:#102a43;border-radius:0;transform:rotate(45deg);width:7px;height:7px\"></i>answer</span>",
		"</div>\n")
}

func (p *page) toolbar() {
	p.w("<div class=\"tools\"><button type=\"button\" data-zoom=\"in\" title=\"zoom in (+)\">+</button>",
		"<button type=\"button\" data-zoom=\"out\" title=\"zoom out (-)\">−</button>",
		"<button type=\"button\" data-zoom=\"reset\" title=\"whole run (0)\">whole run</button>",
		"<span class=\"hint\">ctrl/⌘ + wheel or + / − zoom at the pointer · drag, shift + wheel or ← → pan · 0 whole run · ",
		"click a mark for its record and what it caused · Esc closes</span>",
		"<span id=\"zoomlevel\" class=\"hint\"></span></div>\n")
}

func (p *page) svg() {
	p.w("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"tl\" width=\"", f1(p.width), "\" height=\"", f1(p.height),
		"\" viewBox=\"0 0 ", f1(p.width), " ", f1(p.height), "\" data-left=\"", f1(plotLeft), "\" data-right=\"", f1(p.width-rightPad), "\">\n")
	p.w("<defs><clipPath id=\"plot\"><rect x=\"", f1(plotLeft-6), "\" y=\"0\" width=\"", f1(p.width-plotLeft+6), "\" height=\"", f1(p.height), "\"/></clipPath>",
		"<marker id=\"ah\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" markerUnits=\"userSpaceOnUse\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0 0L8 4L0 8Z\" class=\"ahp\"/></marker></defs>\n")
	top, bottom := p.axisY-10, p.height-4
	for _, r := range p.runs {
		if r.label != "" {
			p.w("<rect class=\"runbg\" x=\"0\" y=\"", f1(r.top), "\" width=\"", f1(p.width), "\" height=\"", f1(r.bottom-r.top), "\"/>\n")
		}
		for li := range r.m.lanes {
			p.w("<rect class=\"lane", strconv.Itoa(li%2), "\" x=\"0\" y=\"", f1(r.laneY[li]), "\" width=\"", f1(p.width), "\" height=\"", f1(r.laneH[li]), "\"/>\n")
		}
	}
	p.w("<g clip-path=\"url(#plot)\">\n")
	// breaks
	for _, s := range p.ax.segs {
		if !s.brk {
			continue
		}
		x0, x1 := p.ax.xk(s.t0, p.maxRank(s.t0))+2, p.ax.x(s.t1)
		p.w("<rect class=\"brk\" data-x=\"", f1(x0), "\" data-x2=\"", f1(x1-2), "\" x=\"", f1(x0), "\" y=\"", f1(top), "\" width=\"", f1(max(x1-x0-2, 1)), "\" height=\"", f1(bottom-top), "\"/>\n")
		p.w("<text class=\"brkl\" data-x=\"", f1((x0+x1)/2), "\" x=\"", f1((x0+x1)/2), "\" y=\"", f1(p.axisY+9), "\" text-anchor=\"middle\">", esc(fmtGap(s.t1-s.t0)), "<title>",
			esc("no record for "+fmtMs(s.t1-s.t0)+" ("+fmtMs(s.t0)+" to "+fmtMs(s.t1)+"): drawn as a break"), "</title></text>\n")
	}
	// axis
	p.w("<line class=\"rule\" x1=\"", f1(plotLeft), "\" y1=\"", f1(p.axisY), "\" x2=\"", f1(p.width-rightPad), "\" y2=\"", f1(p.axisY), "\"/>\n")
	// the labelled ticks, then finer ones the script shows once a zoom spreads them
	for k, ticks := range [][]tick{p.ax.ticks(), p.ax.fineTicks(16)} {
		fine := ""
		if k == 1 {
			fine = " fine"
		}
		for _, t := range ticks {
			p.w("<line class=\"rule tkl", fine, "\" data-x=\"", f1(t.x), "\" x1=\"", f1(t.x), "\" y1=\"", f1(p.axisY-3), "\" x2=\"", f1(t.x), "\" y2=\"", f1(bottom), "\" stroke-opacity=\".35\"/>\n")
			p.w("<text class=\"tk", fine, "\" data-x=\"", f1(t.x), "\" x=\"", f1(t.x), "\" y=\"", f1(p.axisY-4), "\" text-anchor=\"middle\">", esc(t.label), "</text>\n")
		}
	}
	p.subAxis()
	p.faultRules()
	for _, r := range p.runs {
		p.clockReadings(r)
		p.violationRules(r)
		p.divergenceRule(r)
		p.messages(r)
		p.marks(r)
		p.calls(r)
	}
	p.w("</g>\n")
	// the fixed column: lane and call labels (drawn last, over the plot's left edge)
	p.w("<rect class=\"gutter\" x=\"0\" y=\"0\" width=\"", f1(plotLeft-8), "\" height=\"", f1(p.height), "\"/>\n")
	p.w("<text class=\"lbl\" x=\"8\" y=\"", f1(p.axisY-2), "\">virtual time</text>\n")
	for _, r := range p.runs {
		p.labels(r)
	}
	p.w("</svg>\n")
}

// maxRank is the last slot instant t uses in any run.
func (p *page) maxRank(t int64) int {
	k := 0
	for _, r := range p.runs {
		for i, rec := range r.tr.Records {
			if rec.Time == t {
				k = max(k, r.rank[i])
			}
		}
	}
	return k
}

func (r *run) describe() string {
	s := r.in.Scenario + " seed " + strconv.FormatUint(r.in.Seed, 10)
	if r.in.Mutant != "" {
		s += " mutant " + r.in.Mutant
	}
	if r.in.Host != "" {
		s += " host " + r.in.Host
	}
	if r.in.Client != "" {
		s += " client " + r.in.Client
	}
	if r.v.status != "" {
		s += " · oracle: " + r.v.status
	}
	return s
}

func (p *page) labels(r *run) {
	if r.label != "" {
		p.w("<text class=\"runl\" x=\"8\" y=\"", f1(r.top+14), "\">", r.label, ": ", esc(trunc(r.describe(), 120)), "</text>\n")
	}
	for li, l := range r.m.lanes {
		cy := r.laneY[li] + r.laneH[li]/2 + 4
		if trace.IsClient(l.actor) {
			cy -= 6
		}
		p.w("<text class=\"lbl\" x=\"8\" y=\"", f1(cy), "\">", esc(trunc(l.actor, 20)), "</text>\n")
		if trace.IsClient(l.actor) {
			sk := clockSkews(r.tr.Records, l.actor)
			p.w("<text class=\"skew\" data-client=\"", esc(l.actor), "\" x=\"8\" y=\"", f1(cy+12), "\">", esc(skewText(sk)), "<title>",
				esc("the client's clock reading minus the host's (its records' @time - t): "+skewList(sk)), "</title></text>\n")
		}
	}
	p.w("<text class=\"lbl\" x=\"8\" y=\"", f1(r.callsY+12), "\">questions</text>\n")
	for i, c := range r.m.calls {
		y := r.callY[i]
		label := c.key()
		q := strings.Join(c.questions, " / ")
		p.w("<text class=\"lbl\" x=\"8\" y=\"", f1(y+callLabelH+barH-2), "\">", esc(trunc(label, 20)), "<title>", esc(label+": "+q), "</title></text>\n")
		by := y + callLabelH
		row := 0
		for _, name := range claimClients(c) {
			p.w("<text x=\"24\" y=\"", f1(by+barH+2+float64(row)*claimRowH+7), "\">", esc(trunc("claim "+name, 20)), "</text>\n")
			row++
		}
		for _, cd := range r.countdownsOf(c) {
			p.w("<text x=\"24\" y=\"", f1(by+barH+2+float64(row)*claimRowH+7), "\">", esc(trunc("countdown "+cd.client, 20)), "</text>\n")
			row++
		}
	}
}

func skewText(sk []int64) string {
	switch len(sk) {
	case 0:
		return "clock: no record"
	case 1:
		return "clock " + signedMs(sk[0])
	}
	return "clock " + signedMs(sk[0]) + " → " + signedMs(sk[len(sk)-1])
}

func skewList(sk []int64) string {
	var s []string
	for i, d := range sk {
		if i == 8 && len(sk) > 10 {
			s = append(s, "… "+strconv.Itoa(len(sk)-9)+" more")
			s = append(s, signedMs(sk[len(sk)-1]))
			break
		}
		s = append(s, signedMs(d))
	}
	return strings.Join(s, ", ")
}

// signedMs is a clock difference with its sign: +30s, -2m, +0s, -391ms.
func signedMs(d int64) string {
	if d >= 0 {
		return "+" + fmtMs(d)
	}
	return fmtMs(d)
}

// marks draws a mark for every record of every lane of run r.
func (p *page) marks(r *run) {
	for li, l := range r.m.lanes {
		p.w("<g class=\"lane\" data-actor=\"", esc(l.actor), "\">\n")
		for _, mk := range r.m.marks {
			if mk.lane != li {
				continue
			}
			rec := r.tr.Records[mk.rec]
			xy := r.markXY[mk.rec]
			id := r.id(mk.rec)
			p.w("<a href=\"#", id, "\"><g class=\"mk\" data-r=\"", id, "\" data-x=\"", f1(xy[0]), "\" data-y=\"", f1(xy[1]), "\" transform=\"translate(", f1(xy[0]), ",", f1(xy[1]), ")\">")
			p.shape(rec.Kind, rec.String())
			if cls, ok := r.hit[rec.Seq]; ok {
				rad := "6"
				if cls == "wit" {
					rad = "5"
				}
				p.w("<circle class=\"ring ", cls, "\" r=\"", rad, "\"/>")
			}
			if mk.rec == r.div {
				p.w("<circle class=\"divring\" r=\"8\"/>")
			}
			p.w("</g></a>\n")
		}
		p.w("</g>\n")
	}
}

func (p *page) shape(k trace.Kind, title string) {
	cls := "m " + k.String()
	t := "<title>" + esc(title) + "</title>"
	switch k {
	case trace.Fault, trace.Probe:
		p.w("<path class=\"", cls, "\" d=\"M0 -4.5L4.5 0L0 4.5L-4.5 0Z\">", t, "</path>")
	case trace.Reject:
		p.w("<rect class=\"", cls, "\" x=\"-3.5\" y=\"-3.5\" width=\"7\" height=\"7\">", t, "</rect>")
	case trace.Drop:
		p.w("<path class=\"", cls, "\" d=\"M0 -4L4 3.5L-4 3.5Z\">", t, "</path>")
	case trace.Sched, trace.Note:
		p.w("<circle class=\"", cls, "\" r=\"2.2\">", t, "</circle>")
	default:
		p.w("<circle class=\"", cls, "\" r=\"3.2\">", t, "</circle>")
	}
}

// messages draws run r's messages as arrows from the sender's mark to the receiver's.
func (p *page) messages(r *run) {
	p.w("<g class=\"msgs\">\n")
	for _, m := range r.m.msgs {
		from, ok := r.markXY[m.From]
		if !ok {
			continue
		}
		destY, ok := r.laneCenter(m.Dest)
		if !ok {
			continue
		}
		send := r.tr.Records[m.From]
		cls := "msg " + m.Kind
		var x2, y2 float64
		var title string
		switch {
		case m.To < 0:
			cls += " inflight"
			x2, y2 = p.ax.x(r.m.end)+p.ax.step*2, from[1]+(destY-from[1])*0.5
			title = m.Kind + " to " + m.Dest + ": still in flight at the end of the run\n" + send.String()
		case m.Lost:
			cls += " lost"
			drop := r.tr.Records[m.To]
			x2, y2 = r.markXY[m.To][0], from[1]+(destY-from[1])*0.6
			title = m.Kind + " to " + m.Dest + " lost (" + m.Why + ") after " + fmtMs(drop.Time-send.Time) + "\n" + send.String() + "\n" + drop.String()
		default:
			to := r.markXY[m.To]
			x2, y2 = to[0], to[1]
			if m.Delayed {
				cls += " delayed"
			}
			title = m.Kind + " to " + m.Dest + " in " + fmtMs(m.Latency)
			if m.Delayed {
				title += " (delayed: far slower than this link's usual latency)"
			}
			title += "\n" + send.String() + "\n" + r.line(m.To)
		}
		id := r.id(m.From)
		p.w("<g class=\"m-", m.Kind, "\">")
		p.w("<line class=\"", cls, "\" data-r=\"", id, "\" data-x=\"", f1(from[0]), "\" data-x2=\"", f1(x2), "\" x1=\"", f1(from[0]), "\" y1=\"", f1(from[1]),
			"\" x2=\"", f1(x2), "\" y2=\"", f1(y2), "\"")
		if !m.Lost {
			p.w(" marker-end=\"url(#ah)\"")
		}
		p.w("><title>", esc(title), "</title></line>\n")
		if m.Lost {
			p.w("<g class=\"lostx\" data-r=\"", r.id(m.To), "\" data-x=\"", f1(x2), "\" data-y=\"", f1(y2), "\" transform=\"translate(", f1(x2), ",", f1(y2), ")\"><path d=\"M-4 -4L4 4M4 -4L-4 4\"/><title>", esc(title), "</title></g>\n")
		}
		if m.Delayed {
			mx := (from[0] + x2) / 2
			p.w("<text class=\"dly\" data-x=\"", f1(mx), "\" x=\"", f1(mx), "\" y=\"", f1((from[1]+y2)/2-3), "\" text-anchor=\"middle\">", esc(fmtMs(m.Latency)), "</text>\n")
		}
		p.w("</g>\n")
	}
	p.w("</g>\n")
}

// laneCenter is the y of the middle of actor's lane in run r.
func (r *run) laneCenter(actor string) (float64, bool) {
	for li, l := range r.m.lanes {
		if l.actor == actor {
			return r.laneY[li] + lanePad + laneRowH/2, true
		}
	}
	return 0, false
}

func (p *page) faultRules() {
	last := make([]float64, faultRows)
	for i := range last {
		last[i] = -1e9
	}
	for _, r := range p.runs {
		for _, f := range r.m.faults {
			x := p.ax.x(f.t)
			if xy, ok := r.markXY[f.rec]; ok {
				x = xy[0]
			}
			cls := "fault"
			if f.armed {
				cls += " armed"
			}
			title := "<title>" + esc(r.line(f.rec)) + "</title>"
			p.w("<line class=\"", cls, "\" data-x=\"", f1(x), "\" x1=\"", f1(x), "\" y1=\"", f1(r.top), "\" x2=\"", f1(x), "\" y2=\"", f1(r.bottom), "\">", title, "</line>\n")
			label := trunc(f.label, 28)
			if r.label != "" {
				label = r.label + " " + label
			}
			wd := float64(utf8.RuneCountInString(label))*5.6 + 6
			lx, anchor := x+2, "" // a label that would run past the right edge ends at its rule
			if lx+wd > p.width {
				lx, anchor = x-2, " text-anchor=\"end\""
			}
			start := lx
			if anchor != "" {
				start = lx - wd
			}
			row := 0
			for k := range last {
				if start >= last[k] {
					row = k
					break
				}
				if last[k] < last[row] {
					row = k
				}
			}
			last[row] = start + wd
			p.w("<a href=\"#", r.id(f.rec), "\"><text class=\"fl\" data-r=\"", r.id(f.rec), "\" data-x=\"", f1(x+2), "\" x=\"", f1(lx), "\" y=\"", f1(p.faultY+float64(row+1)*faultRowH-3), "\"", anchor, ">", esc(label), title, "</text></a>\n")
		}
	}
}

func (p *page) violationRules(r *run) {
	for i, x := range r.v.violations {
		if x.rec < 0 {
			continue
		}
		xy, ok := r.markXY[r.recIndex(x.rec)]
		if !ok {
			continue
		}
		p.w("<line class=\"viol\" data-x=\"", f1(xy[0]), "\" x1=\"", f1(xy[0]), "\" y1=\"", f1(r.top), "\" x2=\"", f1(xy[0]), "\" y2=\"", f1(r.bottom), "\"", opacity(i), "><title>",
			esc(x.invariant+" at "+recID(x.rec)[1:]+": "+x.message), "</title></line>\n")
	}
}

func opacity(i int) string {
	if i == 0 {
		return ""
	}
	return " stroke-opacity=\".4\""
}

func (p *page) calls(r *run) {
	if len(r.m.calls) == 0 {
		p.w("<text class=\"ql\" data-x=\"", f1(plotLeft), "\" x=\"", f1(plotLeft), "\" y=\"", f1(r.callsY+12), "\">no question call in this run</text>\n")
	}
	endX := p.at(r, -1, r.m.end) // where a bar still open at the end stops
	for i, c := range r.m.calls {
		p.w("<g class=\"call\" data-call=\"", esc(c.key()), "\" data-states=\"", esc(strings.Join(c.states(), " ")), "\">\n")
		p.callBody(r, c, r.callY[i], endX)
		p.w("</g>\n")
	}
}

func (c *call) states() []string {
	var out []string
	for _, ph := range c.phases {
		out = append(out, ph.state)
	}
	return out
}

// span writes the position attributes of a horizontal extent from x0 to x1 (at least
// minW wide): the zoom script keeps data-x and data-x2, the base positions.
func span(x0, x1, minW float64) string {
	return "data-x=\"" + f1(x0) + "\" data-x2=\"" + f1(x1) + "\" data-minw=\"" + f1(minW) + "\" x=\"" + f1(x0) + "\" width=\"" + f1(max(x1-x0, minW)) + "\""
}

func (p *page) callBody(r *run, c *call, y, endX float64) {
	label := c.key()
	q := strings.Join(c.questions, " / ")
	var states []string
	for _, ph := range c.phases {
		states = append(states, ph.state+" "+fmtMs(ph.from))
	}
	head := trunc(q, 90)
	if len(states) > 0 {
		if head != "" {
			head += "  ·  "
		}
		head += strings.Join(states, " → ")
	}
	for _, pt := range c.points {
		if pt.kind == "deadline" {
			head += "  ·  deadline " + fmtMs(pt.t)
			break
		}
	}
	hx := max(plotLeft, p.at(r, c.firstRec, c.first))
	p.w("<text class=\"ql\" data-x=\"", f1(hx), "\" x=\"", f1(hx), "\" y=\"", f1(y+callLabelH-3), "\">", esc(head), "<title>", esc(label+": "+q), "</title></text>\n")
	by := y + callLabelH
	if len(c.phases) == 0 {
		x0 := p.at(r, c.firstRec, c.first)
		p.w("<line class=\"rule\" data-x=\"", f1(x0), "\" data-x2=\"", f1(endX), "\" x1=\"", f1(x0), "\" y1=\"", f1(by+barH/2), "\" x2=\"", f1(endX), "\" y2=\"", f1(by+barH/2), "\"/>\n")
	}
	for j, ph := range c.phases {
		x0 := p.at(r, ph.rec, ph.from)
		title := "<title>" + esc(label+" "+ph.state+" from "+fmtMs(ph.from)+"\n"+r.line(ph.rec)) + "</title>"
		id := r.id(ph.rec)
		switch ph.state {
		case stateOpen, stateContinued:
			x1 := endX
			if j+1 < len(c.phases) {
				x1 = p.at(r, c.phases[j+1].rec, c.phases[j+1].from)
			}
			p.w("<a href=\"#", id, "\"><rect class=\"ph ", ph.state, "\" data-r=\"", id, "\" ", span(x0, x1, 2), " y=\"", f1(by), "\" height=\"", f1(barH), "\" rx=\"2\">", title, "</rect></a>\n")
		default:
			p.w("<a href=\"#", id, "\"><circle class=\"end ", ph.state, "\" data-r=\"", id, "\" data-x=\"", f1(x0), "\" cx=\"", f1(x0), "\" cy=\"", f1(by+barH/2), "\" r=\"5\">", title, "</circle></a>\n")
		}
	}
	for _, pt := range c.points {
		p.point(r, pt, by, by+barH)
	}
	row := 0
	for _, name := range claimClients(c) {
		cy := by + barH + 2 + float64(row)*claimRowH
		row++
		for _, cl := range c.claims {
			if cl.client != name {
				continue
			}
			x0, x1 := p.at(r, cl.fromRec, cl.from), p.at(r, cl.toRec, cl.to)
			cls := "claim"
			end := "\n" + r.line(cl.toRec)
			if cl.toRec < 0 {
				cls += " open"
				end = "\nstill held at the end of the run"
			}
			title := "<title>" + esc("claim by "+name+" on "+label+" from "+fmtMs(cl.from)+" to "+fmtMs(cl.to)+"\n"+r.line(cl.fromRec)+end) + "</title>"
			id := r.id(cl.fromRec)
			p.w("<a href=\"#", id, "\"><rect class=\"", cls, "\" data-r=\"", id, "\" data-client=\"", esc(name), "\" ", span(x0, x1, 2), " y=\"", f1(cy), "\" height=\"", f1(claimRowH-3), "\" rx=\"1.5\">", title, "</rect></a>\n")
		}
	}
	for _, cd := range r.countdownsOf(c) {
		cy := by + barH + 2 + float64(row)*claimRowH
		row++
		p.countdownRow(r, cd, cy)
	}
}

// at is the pixel of record rec of run r, at instant t: the record's own slot on its
// instant's sequence sub-axis when it has a mark, so a bar that a record starts or ends
// starts or ends at that record and not at the first record of its instant; the
// instant's first slot otherwise, or for the end of the run (rec -1: still open, or
// the final state) its last slot, past every record of the run.
func (p *page) at(r *run, rec int, t int64) float64 {
	if xy, ok := r.markXY[rec]; ok && rec >= 0 {
		return xy[0]
	}
	if rec < 0 && t >= r.m.end {
		return p.ax.xk(t, p.maxRank(t))
	}
	return p.ax.x(t)
}

func (p *page) point(r *run, pt point, y0, y1 float64) {
	x := p.ax.x(pt.t) // a deadline or a timer: a time to come, not its record's
	if pt.kind == "answer" || pt.kind == "expired" || pt.kind == "closed" || pt.kind == "cdexpired" {
		x = p.at(r, pt.rec, pt.t)
	}
	title := "<title>" + esc(pt.text+" at "+fmtMs(pt.t)+"\n"+r.line(pt.rec)) + "</title>"
	id := r.id(pt.rec)
	p.w("<a href=\"#", id, "\">")
	cy := (y0 + y1) / 2
	switch pt.kind {
	case "deadline":
		p.w("<line class=\"dl\" data-r=\"", id, "\" data-x=\"", f1(x), "\" x1=\"", f1(x), "\" y1=\"", f1(y0-4), "\" x2=\"", f1(x), "\" y2=\"", f1(y1+4), "\">", title, "</line>")
	case "timer":
		p.w("<line class=\"tm\" data-r=\"", id, "\" data-x=\"", f1(x), "\" x1=\"", f1(x), "\" y1=\"", f1(y0-4), "\" x2=\"", f1(x), "\" y2=\"", f1(y1+4), "\">", title, "</line>")
	case "answer":
		p.w("<g class=\"pt\" data-r=\"", id, "\" data-x=\"", f1(x), "\" data-y=\"", f1(cy), "\" transform=\"translate(", f1(x), ",", f1(cy), ")\"><path class=\"ans\" d=\"M0 -4L4 0L0 4L-4 0Z\">", title, "</path></g>")
	case "expired", "cdexpired":
		cls := "exp"
		if pt.kind == "cdexpired" {
			cls = "exp cdx"
		}
		p.w("<g class=\"pt\" data-r=\"", id, "\" data-x=\"", f1(x), "\" data-y=\"", f1(cy), "\" transform=\"translate(", f1(x), ",", f1(cy), ")\"><path class=\"", cls, "\" d=\"M-3.5 -4L3.5 4M3.5 -4L-3.5 4\">", title, "</path></g>")
	default:
		p.w("<rect class=\"cls\" data-r=\"", id, "\" ", span(x-1, x+1, 2), " y=\"", f1(y1), "\" height=\"4\">", title, "</rect>")
	}
	p.w("</a>\n")
}

func (p *page) countdownRow(r *run, cd *countdown, cy float64) {
	label := cd.call.key()
	for _, s := range cd.segs {
		x0, x1 := p.at(r, s.fromRec, s.from), p.at(r, s.toRec, s.to)
		what := map[string]string{cdRunning: "running", cdPaused: "paused by a focus on a pristine surface (CD-2)",
			cdFrozen: "frozen for good by an edit (CD-4)", cdHeld: "held by Take time (CD-4)"}[s.state]
		text := "countdown of " + cd.client + " on " + label + ": " + what + " from " + fmtMs(s.from) + " with " + fmtMs(s.left) + " left on its clock"
		if s.state == cdRunning {
			text += "; its local deadline falls at " + fmtMs(s.due) + " host time"
		}
		if s.toRec >= 0 {
			text += "\nuntil " + r.line(s.toRec)
		} else {
			text += "\nstill " + s.state + " at the end of the run"
		}
		text += "\n" + r.line(s.fromRec)
		id := r.id(s.fromRec)
		p.w("<a href=\"#", id, "\"><rect class=\"cd ", s.state, "\" data-r=\"", id, "\" data-client=\"", esc(cd.client), "\" data-cd=\"", s.state, "\" ", span(x0, x1, 2),
			" y=\"", f1(cy), "\" height=\"", f1(claimRowH-3), "\" rx=\"1.5\"><title>", esc(text), "</title></rect></a>\n")
		if s.state == cdRunning && s.due <= r.m.end && (s.toRec < 0 || s.to >= s.due) {
			dx := p.ax.x(s.due)
			p.w("<line class=\"cddue\" data-r=\"", id, "\" data-x=\"", f1(dx), "\" x1=\"", f1(dx), "\" y1=\"", f1(cy-2), "\" x2=\"", f1(dx), "\" y2=\"", f1(cy+claimRowH-1), "\"><title>",
				esc("local deadline of "+cd.client+" on "+label+" at "+fmtMs(s.due)+" host time (its own clock plus remainingMs, CD-1)"), "</title></line>\n")
		}
	}
	for _, pt := range cd.expired {
		p.point(r, pt, cy, cy+claimRowH-3)
	}
}

// records writes run r's full record list: each line with its id, its relation keys
// (data-k) and the records of its messages (data-m), which the click panel reads.
func (p *page) records(r *run) {
	head := "records"
	if r.label != "" {
		head = r.label + ": records"
	}
	partners := map[int][]string{}
	for _, m := range r.m.msgs {
		if m.To >= 0 {
			partners[m.From] = append(partners[m.From], r.id(m.To))
			partners[m.To] = append(partners[m.To], r.id(m.From))
		}
	}
	p.w("<h2 style=\"font-size:15px\">", head, "</h2>\n<div class=\"records\">")
	for i, rec := range r.tr.Records {
		var cls []string
		if c, ok := r.hit[rec.Seq]; ok {
			cls = append(cls, c)
		}
		if i == r.div {
			cls = append(cls, "div")
		}
		p.w("<div id=\"", r.id(i), "\"")
		if len(cls) > 0 {
			p.w(" class=\"", strings.Join(cls, " "), "\"")
		}
		if i < len(r.m.rel) && len(r.m.rel[i]) > 0 {
			p.w(" data-k=\"", esc(strings.Join(r.m.rel[i], " ")), "\"")
		}
		if len(partners[i]) > 0 {
			p.w(" data-m=\"", strings.Join(partners[i], " "), "\"")
		}
		p.w(">", esc(rec.String()), "</div>")
	}
	p.w("</div>\n<details><summary>final state</summary><div class=\"records\">")
	for _, l := range r.tr.Final.Lines() {
		p.w("<div>", esc(l), "</div>")
	}
	p.w("</div></details>\n")
	if r.in.Verdict != "" {
		p.w("<details><summary>verdict</summary><div class=\"records\">", esc(r.in.Verdict), "</div></details>\n")
	}
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func trunc(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// esc escapes s for XML and HTML text and attribute values. Invalid UTF-8 and the
// control characters XML 1.0 cannot carry become U+FFFD, so the page stays well-formed
// whatever a scenario or a host wrote. Plain ASCII text without markup characters (most
// of a page) is returned as it is.
func esc(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		switch c := s[i]; {
		case c == '&' || c == '<' || c == '>' || c == '"' || c == '\'' || c == 0x7f || c >= 0x80:
			clean = false
		case c < 0x20 && c != '\n' && c != '\t':
			clean = false
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	start := 0 // the clean span not yet written
	for i := 0; i < len(s); {
		c := s[i]
		rep, n := "", 1
		switch {
		case c == '&':
			rep = "&amp;"
		case c == '<':
			rep = "&lt;"
		case c == '>':
			rep = "&gt;"
		case c == '"':
			rep = "&quot;"
		case c == '\'':
			rep = "&#39;"
		case c == '\n' || c == '\t':
		case c < 0x20 || c == 0x7f:
			rep = "\uFFFD"
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			n = size
			if r == utf8.RuneError && size == 1 || r == 0xFFFE || r == 0xFFFF {
				rep = "\uFFFD"
			}
		}
		if rep != "" {
			b.WriteString(s[start:i])
			b.WriteString(rep)
			start = i + n
		}
		i += n
	}
	b.WriteString(s[start:])
	return b.String()
}
