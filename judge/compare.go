package judge

import (
	"strconv"
	"strings"
)

// Difference is where a host's observation first departs from the reference's.
type Difference struct {
	Stream string
	// Index is the item's place in the stream; Ref and Host are the two items there (a
	// zero Item where one side has none).
	Index     int
	Ref, Host Item
	HasRef    bool
	HasHost   bool
	// Before are up to three items of the stream before it (equal on both sides).
	Before []Item
	// Kind is the kind of the differing item (the reference's, else the host's).
	Kind string
}

// Compare compares two observations stream by stream (package doc): nil when they are
// equivalent, else the earliest difference (by virtual time, then stream name).
func Compare(ref, host Observation) *Difference {
	names := map[string]bool{}
	for n := range ref.Streams {
		names[n] = true
	}
	for n := range host.Streams {
		names[n] = true
	}
	var best *Difference
	for n := range names {
		d := compareStream(n, ref.Streams[n], host.Streams[n])
		if d != nil && (best == nil || d.at() < best.at() || d.at() == best.at() && d.Stream < best.Stream) {
			best = d
		}
	}
	return best
}

func (d *Difference) at() int64 {
	switch {
	case d.HasRef && d.HasHost:
		return min(d.Ref.T, d.Host.T)
	case d.HasRef:
		return d.Ref.T
	}
	return d.Host.T
}

func compareStream(name string, a, b []Item) *Difference {
	n := max(len(a), len(b))
	for i := 0; i < n; i++ {
		var x, y Item
		hx, hy := i < len(a), i < len(b)
		if hx {
			x = a[i]
		}
		if hy {
			y = b[i]
		}
		if hx && hy && x.T == y.T && x.Text == y.Text && (x.Record < 0) == (y.Record < 0) {
			continue
		}
		d := &Difference{Stream: name, Index: i, Ref: x, Host: y, HasRef: hx, HasHost: hy}
		d.Kind = x.Kind
		if !hx {
			d.Kind = y.Kind
		}
		d.Before = a[max(0, i-3):i]
		return d
	}
	return nil
}

// String describes the difference for people: the stream, the items before it, and
// the reference's item (-) against the host's (+).
func (d *Difference) String() string {
	var b strings.Builder
	b.WriteString("the host's observable behaviour departs from the reference engine's on \"" + d.Stream + "\" at its item " + strconv.Itoa(d.Index+1) + ":\n")
	for _, it := range d.Before {
		b.WriteString("    " + it.line() + "\n")
	}
	side := func(sign string, has bool, it Item) {
		if !has {
			b.WriteString(sign + " (nothing)\n")
			return
		}
		b.WriteString(sign + " " + it.line())
		if it.Record >= 0 {
			b.WriteString("   (record " + strconv.Itoa(it.Record) + ")")
		}
		b.WriteByte('\n')
	}
	side("-", d.HasRef, d.Ref)
	side("+", d.HasHost, d.Host)
	return strings.TrimSuffix(b.String(), "\n")
}
