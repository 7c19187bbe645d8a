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
)

// Render returns the page.
func Render(in Input) []byte {
	tr := in.Trace
	if tr == nil {
		tr = &trace.Trace{}
	}
	m := build(tr)
	v := parseVerdict(in.Verdict)
	p := &page{in: in, tr: tr, m: m, v: v, hit: map[int]string{}}
	for i, x := range v.violations {
		if x.rec >= 0 {
			if _, ok := p.hit[x.rec]; !ok || i == 0 {
				p.hit[x.rec] = "hit"
			}
		}
		for _, w := range x.witness {
			if _, ok := p.hit[w]; !ok {
				p.hit[w] = "wit"
			}
		}
	}
	p.layout()
	p.html()
	return p.b.Bytes()
}

type page struct {
	in  Input
	tr  *trace.Trace
	m   *model
	v   verdict
	hit map[int]string // record seq -> hit (the violation's record) or wit (its witness)
	ax  axis
	b   bytes.Buffer

	width, height float64
	faultY        float64 // top of the fault labels
	axisY         float64
	laneY         []float64 // top of each lane
	laneH         []float64
	callsY        float64
	callY         []float64 // top of each call block
	markXY        map[int][2]float64
}

func (p *page) layout() {
	w := 1000.0
	if n := float64(len(p.m.times)) * 9; n > w {
		w = min(n, 3200)
	}
	p.width = plotLeft + w + rightPad
	p.ax = newAxis(p.m.times, plotLeft, plotLeft+w)
	y := 6.0
	p.faultY = y
	if len(p.m.faults) > 0 {
		y += faultRows*faultRowH + 4
	}
	p.axisY = y + 14
	y = p.axisY + 10
	// stack the marks of each lane in rows so that marks at nearby instants stay apart
	last := make([][]float64, len(p.m.lanes))
	p.markXY = map[int][2]float64{}
	for i := range p.m.marks {
		mk := &p.m.marks[i]
		x := p.ax.x(mk.t)
		rows := last[mk.lane]
		row := -1
		for r, lx := range rows {
			if x-lx >= markGap {
				row = r
				break
			}
		}
		if row < 0 && len(rows) < maxRows {
			rows = append(rows, -1e9)
			row = len(rows) - 1
		}
		if row < 0 { // every row is busy here: the least recent one
			row = 0
			for r := range rows {
				if rows[r] < rows[row] {
					row = r
				}
			}
		}
		rows[row] = x
		last[mk.lane] = rows
		mk.row = row
	}
	for li := range p.m.lanes {
		p.m.lanes[li].rows = max(1, len(last[li]))
		h := lanePad*2 + float64(p.m.lanes[li].rows)*laneRowH
		p.laneY = append(p.laneY, y)
		p.laneH = append(p.laneH, h)
		y += h
	}
	for _, mk := range p.m.marks {
		seq := p.tr.Records[mk.rec].Seq
		p.markXY[seq] = [2]float64{p.ax.x(mk.t), p.laneY[mk.lane] + lanePad + laneRowH/2 + float64(mk.row)*laneRowH}
	}
	y += 8
	p.callsY = y
	y += 18
	for _, c := range p.m.calls {
		p.callY = append(p.callY, y)
		y += callLabelH + barH + float64(len(claimClients(c)))*claimRowH + callPad
	}
	if len(p.m.calls) == 0 {
		y += 16
	}
	p.height = y + 8
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

func (p *page) line(rec int) string {
	if rec < 0 || rec >= len(p.tr.Records) {
		return "final state (t=" + strconv.FormatInt(p.m.end, 10) + ")"
	}
	return p.tr.Records[rec].String()
}

func (p *page) seq(rec int) int {
	if rec < 0 || rec >= len(p.tr.Records) {
		return -1
	}
	return p.tr.Records[rec].Seq
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

const css = `
body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:16px;color:#1f2933;background:#fff}
h1{font-size:18px;margin:0 0 2px}
.sub{color:#52606d;margin:0 0 8px}
.meta{color:#52606d;font-size:12px}
.verdict{border-radius:6px;padding:8px 12px;margin:10px 0;border:1px solid}
.verdict.ok{background:#e3f9e5;border-color:#57ae5b}
.verdict.violation{background:#ffe3e3;border-color:#e12d39}
.verdict.unknown,.verdict.none{background:#fff3c4;border-color:#f0b429}
.verdict b{font-size:14px}
.verdict pre{margin:4px 0 0 16px;font-size:11px;white-space:pre-wrap}
.notes{color:#9b1c1c;font-size:12px;margin:4px 0}
.chart{overflow-x:auto;border:1px solid #e4e7eb;border-radius:6px}
svg text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:10px;fill:#323f4b}
svg .lbl{font-size:11px;font-weight:600}
svg .ql{font-family:system-ui,sans-serif;font-size:11px}
svg .tk{fill:#616e7c}
svg .brk{fill:#f5f7fa}
svg .brkl{fill:#9aa5b1;font-size:9px}
svg .lane0{fill:#fafbfc}
svg .lane1{fill:#f0f4f8}
svg .rule{stroke:#cbd2d9;stroke-width:1}
svg .fault{stroke:#d64545;stroke-width:1;stroke-dasharray:4 3}
svg .fault.armed{stroke:#f29b9b;stroke-dasharray:1 3}
svg .fl{fill:#ab091e;font-size:9px}
svg .viol{stroke:#e12d39;stroke-width:2}
svg .m{stroke:#1f2933;stroke-width:.6}
svg .m.in{fill:#fff}
svg .m.out{fill:#3e4c59}
svg .m.fault{fill:#e12d39}
svg .m.drop{fill:#f0b429}
svg .m.reject{fill:#cf1124}
svg .m.probe{fill:#a368fc}
svg .m.sched,svg .m.note{fill:#9aa5b1;stroke:none}
svg .ring{fill:none;stroke:#e12d39;stroke-width:2}
svg .ring.wit{stroke:#f0b429;stroke-width:1.5}
svg .ph.open{fill:#5b9cf5}
svg .ph.continued{fill:#f7b23b}
svg .end.settled{fill:#3f9142}
svg .end.removed,svg .end.ended{fill:#7b8794}
svg .dl{stroke:#cf1124;stroke-width:2}
svg .tm{stroke:#cf1124;stroke-width:1;stroke-dasharray:2 2}
svg .ans{fill:#102a43}
svg .exp{stroke:#cf1124;stroke-width:1.5}
svg .cls{fill:#52606d}
svg .claim{fill:#27ab83;opacity:.85}
svg .claim.open{fill:#8eedc7}
svg a:hover .m,svg a:hover .claim,svg a:hover .ph{stroke:#000;stroke-width:1.5}
.legend{font-size:12px;color:#52606d;margin:6px 0 12px}
.legend span{margin-right:14px;white-space:nowrap}
.legend i{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:4px;vertical-align:-1px;border:1px solid #1f2933}
.records{font:11px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre;overflow-x:auto;border:1px solid #e4e7eb;border-radius:6px;padding:6px 8px}
.records div:target{background:#fff3c4}
.records .hit{background:#ffe3e3;font-weight:700}
.records .wit{background:#fff8e1}
details{margin:8px 0}
summary{cursor:pointer;font-weight:600}
`

func (p *page) html() {
	in := p.in
	title := in.Scenario
	if title == "" {
		title = "run"
	}
	p.w("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>", esc("timeline: "+title), "</title>\n<style>", css, "</style>\n</head>\n<body>\n")
	p.w("<h1>", esc(title), "</h1>\n")
	if in.Summary != "" {
		p.w("<p class=\"sub\">", esc(in.Summary), "</p>\n")
	}
	meta := []string{"seed " + strconv.FormatUint(in.Seed, 10)}
	if in.Mutant != "" {
		meta = append(meta, "mutant "+in.Mutant)
	}
	meta = append(meta, count(len(p.tr.Records), "record"), "virtual time 0s to "+fmtMs(p.m.end),
		count(len(p.m.calls), "question call"), count(len(p.m.faults), "fault"))
	if in.Source != "" {
		meta = append(meta, in.Source)
	}
	p.w("<p class=\"meta\">", esc(strings.Join(meta, " · ")), "</p>\n")
	p.verdictBox()
	for _, n := range in.Notes {
		p.w("<p class=\"notes\">", esc(n), "</p>\n")
	}
	p.legend()
	p.w("<div class=\"chart\">\n")
	p.svg()
	p.w("</div>\n")
	p.records()
	p.w("</body>\n</html>\n")
}

func (p *page) verdictBox() {
	v := p.v
	switch v.status {
	case "":
		p.w("<div class=\"verdict none\"><b>no oracle verdict</b></div>\n")
		return
	case "ok":
		p.w("<div class=\"verdict ok\"><b>oracle: ok</b>: every invariant held</div>\n")
		return
	case "unknown":
		p.w("<div class=\"verdict unknown\"><b>oracle: unknown</b>: ", esc(v.reason), "</div>\n")
		return
	case "violation":
	default:
		p.w("<div class=\"verdict unknown\"><b>oracle: ", esc(v.status), "</b></div>\n")
		return
	}
	p.w("<div class=\"verdict violation\"><b>oracle: violation</b>")
	for _, x := range v.violations {
		p.w("<div><b>", esc(x.invariant), "</b> at ")
		if x.rec >= 0 {
			p.w("<a href=\"#", recID(x.rec), "\">record ", recID(x.rec)[1:], "</a>")
			p.w(" (t=", esc(fmtMs(p.recTime(x.rec))), ")")
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

func (p *page) recTime(seq int) int64 {
	for _, r := range p.tr.Records {
		if r.Seq == seq {
			return r.Time
		}
	}
	return p.m.end
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
		"<span><i style=\"background:#5b9cf5;border-radius:0\"></i>open</span>",
		"<span><i style=\"background:#f7b23b;border-radius:0\"></i>continued (pending)</span>",
		"<span><i style=\"background:#3f9142\"></i>settled</span>",
		"<span><i style=\"background:#7b8794\"></i>removed</span>",
		"<span><i style=\"background:#27ab83;border-radius:0\"></i>claim</span>",
		"<span><i style=\"background:#cf1124;border-radius:0;width:3px\"></i>wait deadline</span>",
		"<span><i style=\"background:#102a43;border-radius:0;transform:rotate(45deg);width:7px;height:7px\"></i>answer</span>",
		"<span>hover a mark for its record; click to jump to it</span>",
		"</div>\n")
}

func (p *page) svg() {
	p.w("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", f1(p.width), "\" height=\"", f1(p.height),
		"\" viewBox=\"0 0 ", f1(p.width), " ", f1(p.height), "\">\n")
	top, bottom := p.axisY-10, p.height-4
	// lane backgrounds
	for li := range p.m.lanes {
		p.w("<rect class=\"lane", strconv.Itoa(li%2), "\" x=\"0\" y=\"", f1(p.laneY[li]), "\" width=\"", f1(p.width), "\" height=\"", f1(p.laneH[li]), "\"/>\n")
	}
	// breaks
	for _, s := range p.ax.segs {
		if !s.brk {
			continue
		}
		p.w("<rect class=\"brk\" x=\"", f1(s.x0+2), "\" y=\"", f1(top), "\" width=\"", f1(s.x1-s.x0-4), "\" height=\"", f1(bottom-top), "\"/>\n")
		p.w("<text class=\"brkl\" x=\"", f1((s.x0+s.x1)/2), "\" y=\"", f1(p.axisY+9), "\" text-anchor=\"middle\">", esc(fmtGap(s.t1-s.t0)), "<title>",
			esc("no record for "+fmtMs(s.t1-s.t0)+" ("+fmtMs(s.t0)+" to "+fmtMs(s.t1)+"): drawn as a break"), "</title></text>\n")
	}
	// axis
	p.w("<line class=\"rule\" x1=\"", f1(plotLeft), "\" y1=\"", f1(p.axisY), "\" x2=\"", f1(p.width-rightPad), "\" y2=\"", f1(p.axisY), "\"/>\n")
	for _, t := range p.ax.ticks() {
		p.w("<line class=\"rule\" x1=\"", f1(t.x), "\" y1=\"", f1(p.axisY-3), "\" x2=\"", f1(t.x), "\" y2=\"", f1(bottom), "\" stroke-opacity=\".35\"/>\n")
		p.w("<text class=\"tk\" x=\"", f1(t.x), "\" y=\"", f1(p.axisY-4), "\" text-anchor=\"middle\">", esc(t.label), "</text>\n")
	}
	p.w("<text class=\"lbl\" x=\"8\" y=\"", f1(p.axisY-2), "\">virtual time</text>\n")
	p.faultRules(top, bottom)
	p.violationRules(bottom)
	// lanes: a label and a mark for every record of the actor
	for li, l := range p.m.lanes {
		p.w("<g class=\"lane\" data-actor=\"", esc(l.actor), "\">\n")
		p.w("<text class=\"lbl\" x=\"8\" y=\"", f1(p.laneY[li]+p.laneH[li]/2+4), "\">", esc(trunc(l.actor, 20)), "</text>\n")
		for _, mk := range p.m.marks {
			if mk.lane != li {
				continue
			}
			r := p.tr.Records[mk.rec]
			xy := p.markXY[r.Seq]
			p.w("<a href=\"#", recID(r.Seq), "\">")
			p.shape(r.Kind, xy[0], xy[1], r.String())
			p.w("</a>\n")
			if cls, ok := p.hit[r.Seq]; ok {
				rad := "6"
				if cls == "wit" {
					rad = "5"
				}
				p.w("<circle class=\"ring ", cls, "\" cx=\"", f1(xy[0]), "\" cy=\"", f1(xy[1]), "\" r=\"", rad, "\"/>\n")
			}
		}
		p.w("</g>\n")
	}
	// calls
	p.w("<text class=\"lbl\" x=\"8\" y=\"", f1(p.callsY+12), "\">questions</text>\n")
	if len(p.m.calls) == 0 {
		p.w("<text class=\"ql\" x=\"", f1(plotLeft), "\" y=\"", f1(p.callsY+12), "\">no question call in this run</text>\n")
	}
	for i, c := range p.m.calls {
		p.callBlock(c, p.callY[i])
	}
	p.w("</svg>\n")
}

func (p *page) shape(k trace.Kind, x, y float64, title string) {
	cls := "m " + k.String()
	t := "<title>" + esc(title) + "</title>"
	switch k {
	case trace.Fault, trace.Probe:
		p.w("<path class=\"", cls, "\" d=\"M", f1(x), " ", f1(y-4.5), "L", f1(x+4.5), " ", f1(y), "L", f1(x), " ", f1(y+4.5), "L", f1(x-4.5), " ", f1(y), "Z\">", t, "</path>")
	case trace.Reject:
		p.w("<rect class=\"", cls, "\" x=\"", f1(x-3.5), "\" y=\"", f1(y-3.5), "\" width=\"7\" height=\"7\">", t, "</rect>")
	case trace.Drop:
		p.w("<path class=\"", cls, "\" d=\"M", f1(x), " ", f1(y-4), "L", f1(x+4), " ", f1(y+3.5), "L", f1(x-4), " ", f1(y+3.5), "Z\">", t, "</path>")
	case trace.Sched, trace.Note:
		p.w("<circle class=\"", cls, "\" cx=\"", f1(x), "\" cy=\"", f1(y), "\" r=\"2.2\">", t, "</circle>")
	default:
		p.w("<circle class=\"", cls, "\" cx=\"", f1(x), "\" cy=\"", f1(y), "\" r=\"3.2\">", t, "</circle>")
	}
}

func (p *page) faultRules(top, bottom float64) {
	last := make([]float64, faultRows)
	for i := range last {
		last[i] = -1e9
	}
	for _, f := range p.m.faults {
		x := p.ax.x(f.t)
		cls := "fault"
		if f.armed {
			cls += " armed"
		}
		title := "<title>" + esc(p.line(f.rec)) + "</title>"
		p.w("<line class=\"", cls, "\" x1=\"", f1(x), "\" y1=\"", f1(top), "\" x2=\"", f1(x), "\" y2=\"", f1(bottom), "\">", title, "</line>\n")
		label := trunc(f.label, 28)
		wd := float64(utf8.RuneCountInString(label))*5.6 + 6
		row := 0
		for r := range last {
			if x >= last[r] {
				row = r
				break
			}
			if last[r] < last[row] {
				row = r
			}
		}
		last[row] = x + wd
		p.w("<a href=\"#", recID(p.seq(f.rec)), "\"><text class=\"fl\" x=\"", f1(x+2), "\" y=\"", f1(p.faultY+float64(row+1)*faultRowH-3), "\">", esc(label), title, "</text></a>\n")
	}
}

func (p *page) violationRules(bottom float64) {
	for i, x := range p.v.violations {
		if x.rec < 0 {
			continue
		}
		xy, ok := p.markXY[x.rec]
		if !ok {
			continue
		}
		p.w("<line class=\"viol\" x1=\"", f1(xy[0]), "\" y1=\"", f1(p.axisY), "\" x2=\"", f1(xy[0]), "\" y2=\"", f1(bottom), "\"", opacity(i), "><title>",
			esc(x.invariant+" at "+recID(x.rec)[1:]+": "+x.message), "</title></line>\n")
	}
}

func opacity(i int) string {
	if i == 0 {
		return ""
	}
	return " stroke-opacity=\".4\""
}

func (p *page) callBlock(c *call, y float64) {
	label := c.key()
	p.w("<g class=\"call\" data-call=\"", esc(label), "\" data-states=\"", esc(strings.Join(c.states(), " ")), "\">\n")
	p.callBody(c, y)
	p.w("</g>\n")
}

func (c *call) states() []string {
	var out []string
	for _, ph := range c.phases {
		out = append(out, ph.state)
	}
	return out
}

func (p *page) callBody(c *call, y float64) {
	endX := p.ax.x(p.m.end)
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
	p.w("<text class=\"lbl\" x=\"8\" y=\"", f1(y+callLabelH+barH-2), "\">", esc(trunc(label, 20)), "<title>", esc(label+": "+q), "</title></text>\n")
	p.w("<text class=\"ql\" x=\"", f1(max(plotLeft, p.ax.x(c.first))), "\" y=\"", f1(y+callLabelH-3), "\">", esc(head), "<title>", esc(label+": "+q), "</title></text>\n")
	by := y + callLabelH
	if len(c.phases) == 0 {
		p.w("<line class=\"rule\" x1=\"", f1(p.ax.x(c.first)), "\" y1=\"", f1(by+barH/2), "\" x2=\"", f1(endX), "\" y2=\"", f1(by+barH/2), "\"/>\n")
	}
	for j, ph := range c.phases {
		x0 := p.ax.x(ph.from)
		title := "<title>" + esc(label+" "+ph.state+" from "+fmtMs(ph.from)+"\n"+p.line(ph.rec)) + "</title>"
		switch ph.state {
		case stateOpen, stateContinued:
			x1 := endX
			if j+1 < len(c.phases) {
				x1 = p.ax.x(c.phases[j+1].from)
			}
			p.w("<a href=\"#", recID(p.seq(ph.rec)), "\"><rect class=\"ph ", ph.state, "\" x=\"", f1(x0), "\" y=\"", f1(by), "\" width=\"", f1(max(x1-x0, 2)), "\" height=\"", f1(barH), "\" rx=\"2\">", title, "</rect></a>\n")
		default:
			p.w("<a href=\"#", recID(p.seq(ph.rec)), "\"><circle class=\"end ", ph.state, "\" cx=\"", f1(x0), "\" cy=\"", f1(by+barH/2), "\" r=\"5\">", title, "</circle></a>\n")
		}
	}
	for _, pt := range c.points {
		x := p.ax.x(pt.t)
		title := "<title>" + esc(pt.text+" at "+fmtMs(pt.t)+"\n"+p.line(pt.rec)) + "</title>"
		p.w("<a href=\"#", recID(p.seq(pt.rec)), "\">")
		switch pt.kind {
		case "deadline":
			p.w("<line class=\"dl\" x1=\"", f1(x), "\" y1=\"", f1(by-4), "\" x2=\"", f1(x), "\" y2=\"", f1(by+barH+4), "\">", title, "</line>")
		case "timer":
			p.w("<line class=\"tm\" x1=\"", f1(x), "\" y1=\"", f1(by-4), "\" x2=\"", f1(x), "\" y2=\"", f1(by+barH+4), "\">", title, "</line>")
		case "answer":
			cy := by + barH/2
			p.w("<path class=\"ans\" d=\"M", f1(x), " ", f1(cy-4), "L", f1(x+4), " ", f1(cy), "L", f1(x), " ", f1(cy+4), "L", f1(x-4), " ", f1(cy), "Z\">", title, "</path>")
		case "expired":
			p.w("<path class=\"exp\" d=\"M", f1(x-3), " ", f1(by-1), "L", f1(x+3), " ", f1(by+barH+1), "M", f1(x+3), " ", f1(by-1), "L", f1(x-3), " ", f1(by+barH+1), "\">", title, "</path>")
		default:
			p.w("<rect class=\"cls\" x=\"", f1(x-1), "\" y=\"", f1(by+barH), "\" width=\"2\" height=\"4\">", title, "</rect>")
		}
		p.w("</a>\n")
	}
	clients := claimClients(c)
	for ci, name := range clients {
		cy := by + barH + 2 + float64(ci)*claimRowH
		p.w("<text x=\"24\" y=\"", f1(cy+7), "\">", esc(trunc("claim "+name, 20)), "</text>\n")
		for _, cl := range c.claims {
			if cl.client != name {
				continue
			}
			x0, x1 := p.ax.x(cl.from), p.ax.x(cl.to)
			cls := "claim"
			end := "\n" + p.line(cl.toRec)
			if cl.toRec < 0 {
				cls += " open"
				end = "\nstill held at the end of the run"
			}
			title := "<title>" + esc("claim by "+name+" on "+label+" from "+fmtMs(cl.from)+" to "+fmtMs(cl.to)+"\n"+p.line(cl.fromRec)+end) + "</title>"
			p.w("<a href=\"#", recID(p.seq(cl.fromRec)), "\"><rect class=\"", cls, "\" data-client=\"", esc(name), "\" x=\"", f1(x0), "\" y=\"", f1(cy), "\" width=\"", f1(max(x1-x0, 2)), "\" height=\"", f1(claimRowH-3), "\" rx=\"1.5\">", title, "</rect></a>\n")
		}
	}
}

func (p *page) records() {
	p.w("<h2 style=\"font-size:15px\">records</h2>\n<div class=\"records\">")
	for _, r := range p.tr.Records {
		cls := ""
		if c, ok := p.hit[r.Seq]; ok {
			cls = " class=\"" + c + "\""
		}
		p.w("<div id=\"", recID(r.Seq), "\"", cls, ">", esc(r.String()), "</div>")
	}
	p.w("</div>\n<details><summary>final state</summary><div class=\"records\">")
	for _, l := range p.tr.Final.Lines() {
		p.w("<div>", esc(l), "</div>")
	}
	p.w("</div></details>\n")
	if p.in.Verdict != "" {
		p.w("<details><summary>verdict</summary><div class=\"records\">", esc(p.in.Verdict), "</div></details>\n")
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
// whatever a scenario or a host wrote.
func esc(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0xFFFE && r <= 0xFFFF):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
