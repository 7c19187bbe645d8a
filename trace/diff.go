package trace

import "strconv"

// Divergence is where two traces first differ.
type Divergence struct {
	// Record is the index of the first record that differs (or that one trace lacks);
	// -1 when every record agrees and the final states differ.
	Record int
	// Final is the index of the first differing line of Final.Lines when Record is -1.
	Final int
	// A and B are the two differing lines ("" where a trace has none).
	A, B string
}

// String is a one-line description of the divergence.
func (d Divergence) String() string {
	where := "record " + strconv.Itoa(d.Record)
	if d.Record < 0 {
		where = "final line " + strconv.Itoa(d.Final)
	}
	return "first divergence at " + where + ":\n  a: " + d.A + "\n  b: " + d.B
}

// Diverge compares two traces record by record (by canonical line), then their seeds'
// final states, and returns the first difference, or ok=false when they are identical.
func Diverge(a, b *Trace) (Divergence, bool) {
	var la, lb []byte
	n := len(a.Records)
	if len(b.Records) > n {
		n = len(b.Records)
	}
	for i := 0; i < n; i++ {
		la, lb = la[:0], lb[:0]
		if i < len(a.Records) {
			la = a.Records[i].AppendTo(la)
		}
		if i < len(b.Records) {
			lb = b.Records[i].AppendTo(lb)
		}
		if string(la) != string(lb) {
			return Divergence{Record: i, A: string(la), B: string(lb)}, true
		}
	}
	fa, fb := a.Final.Lines(), b.Final.Lines()
	n = len(fa)
	if len(fb) > n {
		n = len(fb)
	}
	for i := 0; i < n; i++ {
		var x, y string
		if i < len(fa) {
			x = fa[i]
		}
		if i < len(fb) {
			y = fb[i]
		}
		if x != y {
			return Divergence{Record: -1, Final: i, A: x, B: y}, true
		}
	}
	return Divergence{}, false
}
