package timeline

import "strconv"

// The sequence sub-axis drawn: each virtual instant widened for its records (axis.go)
// gets a bracket under the time axis from its first record's slot to its last, labelled
// with its instant and how many records stand in it ("2.246s · 50 records"). At the
// fitted zoom the brackets are a few pixels wide and the script hides them; zoomed into
// a busy instant, where no tick of the time axis falls, the bracket says which instant
// the records belong to.
func (p *page) subAxis() {
	for i, t := range p.ax.inst {
		w := p.ax.cum[i+1] - p.ax.cum[i]
		n := int(w/p.ax.step+0.5) + 1
		x0 := p.ax.x(t)
		x1 := x0 + w
		y := p.axisY + 3
		label := fmtMs(t) + " · " + strconv.Itoa(n) + " records"
		p.w("<g class=\"subax\"><line class=\"subb\" data-x=\"", f1(x0), "\" data-x2=\"", f1(x1), "\" x1=\"", f1(x0), "\" y1=\"", f1(y), "\" x2=\"", f1(x1), "\" y2=\"", f1(y), "\"/>",
			"<text class=\"subl\" data-x=\"", f1(x0), "\" data-x2=\"", f1(x1), "\" x=\"", f1(x0), "\" y=\"", f1(y+9), "\"><title>",
			esc("the records of instant "+fmtMs(t)+" in sequence order, side by side"), "</title>", esc(label), "</text></g>\n")
	}
}
