package timeline

import (
	"sort"
	"strconv"
)

// axis maps virtual milliseconds to x pixels: linear inside each segment of activity,
// with long idle gaps drawn as fixed-width breaks (a 120 s timeout after 3 s of activity
// would otherwise squeeze everything into a few pixels).
//
// Inside an instant the axis has a sequence sub-axis: an instant with n records is
// widened by its extra width (n-1 steps), so the records of one virtual instant stand
// side by side in sequence order (xk) instead of stacking into a column; x(t) is an
// instant's first slot.
type axis struct {
	segs   []seg
	x0, x1 float64
	inst   []int64   // the widened instants, sorted
	cum    []float64 // cum[i]: the extra width of every instant before inst[i]
	step   float64   // px between two records of one instant
}

type seg struct {
	t0, t1 int64
	x0, x1 float64
	brk    bool // an idle gap drawn as a break
}

const (
	breakWidth = 34.0
	minSegment = 70.0
	maxBreaks  = 8
)

// newAxis lays out the instants times (sorted, unique, starting at 0) over [x0, x1],
// instant times[i] widened by extra[i] px (nil: none).
func newAxis(times []int64, extra []float64, x0, x1 float64, step float64) axis {
	total := 0.0
	var inst []int64
	var cum []float64
	for i, w := range extra {
		if w > 0 {
			inst = append(inst, times[i])
			cum = append(cum, total)
			total += w
		}
	}
	a := newBaseAxis(times, x0, x1-total)
	a.x1, a.inst, a.cum, a.step = x1, inst, append(cum, total), step
	return a
}

func newBaseAxis(times []int64, x0, x1 float64) axis {
	a := axis{x0: x0, x1: x1}
	if len(times) == 0 {
		times = []int64{0}
	}
	span := times[len(times)-1] - times[0]
	// the gaps to break: longer than 2 s and a fifth of the run, at most maxBreaks (the
	// longest; ties by time)
	threshold := max(int64(2000), span/5)
	type gap struct {
		i   int
		len int64
	}
	var gaps []gap
	for i := 1; i < len(times); i++ {
		if g := times[i] - times[i-1]; g > threshold {
			gaps = append(gaps, gap{i, g})
		}
	}
	sort.SliceStable(gaps, func(i, j int) bool { return gaps[i].len > gaps[j].len })
	if len(gaps) > maxBreaks {
		gaps = gaps[:maxBreaks]
	}
	broken := map[int]bool{}
	for _, g := range gaps {
		broken[g.i] = true
	}
	// segments of activity between the breaks
	start := times[0]
	for i := 1; i < len(times); i++ {
		if broken[i] {
			a.segs = append(a.segs, seg{t0: start, t1: times[i-1]}, seg{t0: times[i-1], t1: times[i], brk: true})
			start = times[i]
		}
	}
	a.segs = append(a.segs, seg{t0: start, t1: times[len(times)-1]})
	var active int64
	nActive, nBreak := 0, 0
	for _, s := range a.segs {
		if s.brk {
			nBreak++
		} else {
			nActive++
			active += s.t1 - s.t0
		}
	}
	free := (x1 - x0) - float64(nBreak)*breakWidth - float64(nActive)*minSegment
	if free < 0 {
		free = 0
	}
	x := x0
	for i := range a.segs {
		s := &a.segs[i]
		w := breakWidth
		if !s.brk {
			w = minSegment
			if active > 0 {
				w += free * float64(s.t1-s.t0) / float64(active)
			} else {
				w += free / float64(nActive)
			}
		}
		s.x0, s.x1 = x, x+w
		x += w
	}
	return a
}

// x is the pixel of instant t (clamped to the axis): its first slot when the instant
// is widened.
func (a axis) x(t int64) float64 {
	i := sort.Search(len(a.inst), func(i int) bool { return a.inst[i] >= t })
	extra := 0.0
	if len(a.cum) > 0 {
		extra = a.cum[i]
	}
	return a.base(t) + extra
}

// xk is the pixel of the k-th record (from 0) of instant t.
func (a axis) xk(t int64, k int) float64 { return a.x(t) + float64(k)*a.step }

// base is the pixel of instant t without the sub-axes (clamped to the axis). An instant
// segment (all its records at one time) sits in its middle, with a small margin on both
// sides otherwise.
func (a axis) base(t int64) float64 {
	if len(a.segs) == 0 {
		return a.x0
	}
	if t <= a.segs[0].t0 {
		return a.segs[0].pos(a.segs[0].t0)
	}
	for _, s := range a.segs {
		if t < s.t1 || t == s.t1 && !s.brk { // a break's end belongs to the segment after it
			return s.pos(t)
		}
	}
	last := a.segs[len(a.segs)-1]
	return last.pos(last.t1)
}

const margin = 8.0

func (s seg) pos(t int64) float64 {
	if s.t1 == s.t0 {
		return (s.x0 + s.x1) / 2
	}
	lo, hi := s.x0, s.x1
	if !s.brk {
		lo, hi = s.x0+margin, s.x1-margin
	}
	return lo + (hi-lo)*float64(t-s.t0)/float64(s.t1-s.t0)
}

// tick is one labelled instant on the axis.
type tick struct {
	t     int64
	x     float64
	label string
	major bool // a segment's start or end (always labelled)
}

// ticks labels each segment of activity at round steps (1, 2, 5 × 10^k ms) at least
// 64 px apart, plus each segment's start and end.
func (a axis) ticks() []tick {
	var out []tick
	lastX := -1e9
	add := func(t int64, major bool) {
		x := a.x(t)
		if x-lastX < 44 {
			if !major || len(out) == 0 {
				return
			}
			// a segment bound wins over a round tick too close to it
			if !out[len(out)-1].major {
				out = out[:len(out)-1]
			} else {
				return
			}
		}
		out = append(out, tick{t: t, x: x, label: fmtMs(t), major: major})
		lastX = x
	}
	for _, s := range a.segs {
		if s.brk {
			continue
		}
		add(s.t0, true)
		if s.t1 > s.t0 {
			pxPerMs := (s.x1 - s.x0 - 2*margin) / float64(s.t1-s.t0)
			step := niceStep(64 / pxPerMs)
			for t := (s.t0/step + 1) * step; t < s.t1; t += step {
				add(t, false)
			}
			add(s.t1, true)
		}
	}
	return out
}

// fineTicks are the round instants at least minPx apart that ticks leaves out: the
// page hides them until a zoom spreads them far enough apart to label.
func (a axis) fineTicks(minPx float64) []tick {
	coarse := map[int64]bool{}
	for _, t := range a.ticks() {
		coarse[t.t] = true
	}
	var out []tick
	for _, s := range a.segs {
		if s.brk || s.t1 <= s.t0 {
			continue
		}
		pxPerMs := (s.x1 - s.x0 - 2*margin) / float64(s.t1-s.t0)
		step := niceStep(minPx / pxPerMs)
		for t := (s.t0/step + 1) * step; t < s.t1; t += step {
			if !coarse[t] {
				out = append(out, tick{t: t, x: a.x(t), label: fmtMs(t)})
			}
		}
	}
	return out
}

func niceStep(minMs float64) int64 {
	for step := int64(1); ; step *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if float64(step*m) >= minMs {
				return step * m
			}
		}
	}
}

// fmtMs is a readable instant: 0s, 250ms, 1s, 2.05s, 120s, 10m30s (minutes from 10 on).
func fmtMs(t int64) string {
	switch {
	case t == 0:
		return "0s"
	case t < 0:
		return "-" + fmtMs(-t)
	case t < 1000:
		return strconv.FormatInt(t, 10) + "ms"
	case t >= 600_000 && t%1000 == 0:
		m, s := t/60_000, (t%60_000)/1000
		if s == 0 {
			return strconv.FormatInt(m, 10) + "m"
		}
		return strconv.FormatInt(m, 10) + "m" + strconv.FormatInt(s, 10) + "s"
	}
	s := strconv.FormatFloat(float64(t)/1000, 'f', 3, 64)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s + "s"
}

// fmtGap is a break's label: the idle time it hides.
func fmtGap(d int64) string { return "+" + fmtMs(d) }
