package timeline

import (
	"math"
	"strconv"

	"github.com/twosettle/twosettle/trace"
)

// A client's clock (CD-1, CD-10): each client record carries the client's own clock
// reading (a@35040) beside the host's virtual time, and their difference is the client's
// skew. The lane's label says the skew in words; a skewed client's lane also carries
// its clock readings under the axis's labelled ticks, so the picture shows what that
// client's clock said at each instant of host time (a clock 30 s ahead reads 35s under
// the axis's 5s). A client whose clock always agrees with the host's gets no readings:
// they would repeat the axis.

// clockAt is one known reading of a client's clock: at host instant t it read t + skew.
type clockAt struct{ t, skew int64 }

// clockReading is what client's clock read at host instant t, and whether the client has
// records at all. Its records are the known readings; between two of them the clock
// runs linearly (a drift), unless the simulator jumped it (a clock-jump fault on the
// client) in between, which moves it at the fault's instant; before its first record
// and after its last, the nearest record's skew holds (with the jumps since).
func clockReading(recs []trace.Record, client string, t int64) (int64, bool) {
	var older, prev, next *clockAt // older: the reading before prev's instant, if no jump came between
	var sincePrev, toNext int64    // the jumps after prev up to t, and after t before next
	for _, r := range recs {
		if f, ok := r.Payload.(trace.Injected); ok && f.Kind == "clock-jump" && f.Target == client && !f.Armed {
			if r.Time <= t {
				sincePrev += f.N
			} else {
				toNext += f.N
			}
			continue
		}
		if r.Actor != client {
			continue
		}
		if r.Time > t {
			next = &clockAt{r.Time, r.ClientTime - r.Time}
			break
		}
		k := &clockAt{r.Time, r.ClientTime - r.Time}
		switch {
		case prev != nil && k.t > prev.t && sincePrev == 0:
			older = prev
		case prev != nil && k.t > prev.t:
			older = nil
		}
		prev, sincePrev = k, 0
	}
	switch {
	case prev == nil && next == nil:
		return 0, false
	case prev == nil:
		return t + next.skew - toNext, true
	case next == nil && sincePrev == 0 && older != nil:
		// after the last reading: the drift of the last two goes on
		return t + older.skew + drift(*older, *prev, t), true
	case next == nil || sincePrev != 0 || toNext != 0:
		return t + prev.skew + sincePrev, true
	}
	// a steady (possibly drifting) clock between two readings
	return t + prev.skew + drift(*prev, *next, t), true
}

// drift is how far a clock that read with skew a.skew at a.t and b.skew at b.t (a.t <
// b.t) has drifted from a's skew by host instant t.
func drift(a, b clockAt, t int64) int64 {
	return int64(math.Round(float64(t-a.t) / float64(b.t-a.t) * float64(b.skew-a.skew)))
}

// skewed is whether client's clock ever differs from the host's.
func skewed(recs []trace.Record, client string) bool {
	for _, d := range clockSkews(recs, client) {
		if d != 0 {
			return true
		}
	}
	return false
}

// clockReadings writes run r's skewed clients' readings at the bottom of their lanes,
// one under each tick of the axis, labelled or finer (data-tick: the tick's place in its
// list, so the script shows a reading only where it shows the tick).
func (p *page) clockReadings(r *run) {
	lists := [][]tick{p.ax.ticks(), p.ax.fineTicks(16)} // as svg draws them
	for li, l := range r.m.lanes {
		if !trace.IsClient(l.actor) || !skewed(r.tr.Records, l.actor) {
			continue
		}
		y := r.laneY[li] + r.laneH[li] - 2
		for fine, ticks := range lists {
			cls := "lck"
			if fine == 1 {
				cls = "lck fine"
			}
			for k, tk := range ticks {
				at, ok := clockReading(r.tr.Records, l.actor, tk.t)
				if !ok {
					continue
				}
				p.w("<text class=\"", cls, "\" data-client=\"", esc(l.actor), "\" data-tick=\"", strconv.Itoa(k), "\" data-x=\"", f1(tk.x), "\" x=\"", f1(tk.x), "\" y=\"", f1(y),
					"\" text-anchor=\"middle\">", esc(fmtMs(at)), "<title>", esc(l.actor+"'s clock read "+fmtMs(at)+" at "+fmtMs(tk.t)+" host time (skew "+signedMs(at-tk.t)+")"), "</title></text>\n")
			}
		}
	}
}
