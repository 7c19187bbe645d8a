package timeline

import (
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/trace"
)

// comparison is two runs drawn on one page: where their traces first part.
type comparison struct {
	a, b   *run
	d      trace.Divergence
	differ bool
}

// contextLines is how many transcript lines the divergence box shows around the first
// divergent record.
const contextLines = 3

// RenderAgainst draws runs a and b on one page, on one time axis (A's lanes above B's),
// with the first divergent record (trace.Diverge: the first record whose canonical line
// differs, or the first differing line of the final state) ringed and ruled in both runs
// and the transcript lines around it in the header. differ reports whether the runs
// differ at all.
func RenderAgainst(a, b Input) (html []byte, differ bool) {
	p := &page{}
	ra, rb := newRun(a, "a", "A"), newRun(b, "b", "B")
	p.runs = []*run{ra, rb}
	c := &comparison{a: ra, b: rb}
	c.d, c.differ = trace.Diverge(ra.tr, rb.tr)
	if c.differ && c.d.Record >= 0 {
		if c.d.Record < len(ra.tr.Records) {
			ra.div = c.d.Record
		}
		if c.d.Record < len(rb.tr.Records) {
			rb.div = c.d.Record
		}
	}
	p.against = c
	p.build()
	return p.b.Bytes(), c.differ
}

func (c *comparison) title() string {
	an, bn := c.a.in.Scenario, c.b.in.Scenario
	if an == "" {
		an = "run"
	}
	if bn == "" {
		bn = "run"
	}
	if an == bn {
		return an + ": A against B"
	}
	return an + " against " + bn
}

// divergenceBox is the header's account of where the runs part, in transcript lines:
// the shared lines before it, then A's lines (-) and B's lines (+) from it on.
func (p *page) divergenceBox() {
	c := p.against
	if !c.differ {
		p.w("<div class=\"divergence same\" id=\"divergence\"><b>the runs are identical</b>: every record and the final state agree (", count(len(c.a.tr.Records), "record"), ")</div>\n")
		return
	}
	p.w("<div class=\"divergence\" id=\"divergence\"><b>the runs part at ")
	if c.d.Record >= 0 {
		at := c.d.Record
		p.w("record ", strconv.Itoa(at))
		var times []string
		for _, r := range []*run{c.a, c.b} {
			if at < len(r.tr.Records) {
				times = append(times, r.label+" t="+fmtMs(r.tr.Records[at].Time))
			} else {
				times = append(times, r.label+" has no record "+strconv.Itoa(at)+" (its run ended)")
			}
		}
		p.w("</b> (", esc(strings.Join(times, ", ")), "): ")
		for _, r := range []*run{c.a, c.b} {
			if r.div >= 0 {
				p.w("<a href=\"#", r.id(r.div), "\">", r.label, "'s record</a> ")
			}
		}
		p.w("<pre>")
		for i := max(0, at-contextLines); i < at; i++ {
			p.w("<span>  ", esc(c.a.tr.Records[i].String()), "</span>\n")
		}
		for _, side := range []struct {
			r    *run
			sign string
			cls  string
		}{{c.a, "- A ", "minus"}, {c.b, "+ B ", "plus"}} {
			recs := side.r.tr.Records
			if at >= len(recs) {
				p.w("<span class=\"", side.cls, "\">", side.sign, "(no record: the run ended)</span>\n")
				continue
			}
			for i := at; i < min(len(recs), at+contextLines); i++ {
				p.w("<span class=\"", side.cls, "\">", side.sign, esc(recs[i].String()), "</span>\n")
			}
		}
		p.w("</pre></div>\n")
		return
	}
	p.w("the final state</b>, line ", strconv.Itoa(c.d.Final+1), " (every record agrees):<pre>")
	p.w("<span class=\"minus\">- A ", esc(c.d.A), "</span>\n<span class=\"plus\">+ B ", esc(c.d.B), "</span>\n</pre></div>\n")
}

// divergenceRule draws the divergence marker over run r: a rule through the first
// divergent record's mark (its ring is drawn with the marks), or at the end of a run
// that has no such record.
func (p *page) divergenceRule(r *run) {
	c := p.against
	if c == nil || !c.differ {
		return
	}
	var x float64
	var title string
	switch {
	case r.div >= 0:
		xy, ok := r.markXY[r.div]
		if !ok {
			x = p.ax.x(r.tr.Records[r.div].Time)
		} else {
			x = xy[0]
		}
		title = "the runs part here: " + r.label + "'s record " + recID(r.tr.Records[r.div].Seq)[1:] + "\n" + r.tr.Records[r.div].String()
	case c.d.Record >= 0:
		x = p.ax.x(r.m.end)
		title = r.label + " has no record " + strconv.Itoa(c.d.Record) + ": its run ended here"
	default:
		x = p.ax.x(r.m.end)
		title = "every record agrees; the final states part at line " + strconv.Itoa(c.d.Final+1) + "\n" + r.label + ": " + map[bool]string{true: c.d.A, false: c.d.B}[r == c.a]
	}
	p.w("<line class=\"divrule\" data-x=\"", f1(x), "\" x1=\"", f1(x), "\" y1=\"", f1(r.top), "\" x2=\"", f1(x), "\" y2=\"", f1(r.bottom), "\"><title>", esc(title), "</title></line>\n")
}
