package timeline

import (
	"reflect"
	"testing"
)

func TestFmtMs(t *testing.T) {
	for ms, want := range map[int64]string{0: "0s", 250: "250ms", 1000: "1s", 1500: "1.5s", 2050: "2.05s", 5020: "5.02s",
		120_000: "120s", 120_100: "120.1s", 600_000: "10m", 630_000: "10m30s", 90_000: "90s", 12791: "12.791s"} {
		if got := fmtMs(ms); got != want {
			t.Errorf("fmtMs(%d) = %q, want %q", ms, got, want)
		}
	}
}

func TestAxisBreaksLongIdleGapsAndStaysMonotonic(t *testing.T) {
	times := []int64{0, 10, 20, 2050, 3000, 123_000, 123_010}
	a := newAxis(times, nil, 100, 1100, 0)
	breaks := 0
	for _, s := range a.segs {
		if s.brk {
			breaks++
			if s.t0 != 3000 || s.t1 != 123_000 {
				t.Fatalf("break %+v", s)
			}
		}
	}
	if breaks != 1 {
		t.Fatalf("%d breaks: %+v", breaks, a.segs)
	}
	last := -1.0
	for ms := int64(0); ms <= 123_010; ms += 5 {
		x := a.x(ms)
		if x < last || x < 100 || x > 1100 {
			t.Fatalf("x(%d) = %v after %v", ms, x, last)
		}
		last = x
	}
	// the activity before the gap gets most of the width, not 3/123 of it
	if a.x(3000)-a.x(0) < 500 {
		t.Fatalf("0s..3s is %v px wide", a.x(3000)-a.x(0))
	}
	// a segment after a break is labelled at its start
	var labels []string
	for _, tk := range a.ticks() {
		labels = append(labels, tk.label)
	}
	found := false
	for _, l := range labels {
		if l == "123s" {
			found = true
		}
	}
	if !found {
		t.Fatalf("ticks %q", labels)
	}
	// one instant: still a usable axis
	one := newAxis([]int64{0}, nil, 0, 500, 0)
	if x := one.x(0); x != 250 {
		t.Fatalf("x(0) = %v", x)
	}
}

func TestParseVerdict(t *testing.T) {
	text := "oracle: violation\n  INV-GW-CANCEL at 0030: cancel ev=e1 to a.1, the winner\n" +
		"    0029 t=1977 host in event-result a.1\n    0030 t=1977 host out send a.1 cancel ev=e1\n" +
		"  INV-LIVE-NO-LEAK at final: s1/c5: reservation msg-2 outlives its reply"
	v := parseVerdict(text)
	want := verdict{status: "violation", violations: []violation{
		{invariant: "INV-GW-CANCEL", rec: 30, message: "cancel ev=e1 to a.1, the winner", witness: []int{29, 30},
			lines: []string{"0029 t=1977 host in event-result a.1", "0030 t=1977 host out send a.1 cancel ev=e1"}},
		{invariant: "INV-LIVE-NO-LEAK", rec: -1, message: "s1/c5: reservation msg-2 outlives its reply"},
	}}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("%+v", v)
	}
	if v := parseVerdict("oracle: unknown: the record budget ran out at 0100"); v.status != "unknown" || v.reason != "the record budget ran out at 0100" {
		t.Fatalf("%+v", v)
	}
	if v := parseVerdict(""); v.status != "" {
		t.Fatalf("%+v", v)
	}
}

func TestEsc(t *testing.T) {
	for in, want := range map[string]string{
		"plain text 0042 t=5":    "plain text 0042 t=5",
		`<a href="x">&'</a>`:     "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;",
		"nul\x00bell\x07 ok\t\n": "nul\uFFFDbell\uFFFD ok\t\n",
		"bad \xff utf8 \x7f":     "bad \uFFFD utf8 \uFFFD",
		"ünïcode \uFFFE":         "ünïcode \uFFFD",
	} {
		if got := esc(in); got != want {
			t.Errorf("esc(%q) = %q, want %q", in, got, want)
		}
	}
}
