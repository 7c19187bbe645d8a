package oracle_test

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
)

func TestCatalogue(t *testing.T) {
	cat := oracle.Catalogue()
	if len(cat) < 25 {
		t.Fatalf("%d invariants, want at least 25", len(cat))
	}
	seen := map[string]bool{}
	for _, inv := range cat {
		switch {
		case !strings.HasPrefix(inv.Name, "INV-"):
			t.Errorf("%q: names start with INV-", inv.Name)
		case seen[inv.Name]:
			t.Errorf("%s twice", inv.Name)
		case len(inv.Doc) < 60:
			t.Errorf("%s: a doc of %d bytes says too little", inv.Name, len(inv.Doc))
		case len(inv.Guards) == 0:
			t.Errorf("%s guards no requirement", inv.Name)
		case inv.Kind != oracle.KindSafety && inv.Kind != oracle.KindLiveness && inv.Kind != oracle.KindValidation:
			t.Errorf("%s: kind %q", inv.Name, inv.Kind)
		}
		seen[inv.Name] = true
		for _, id := range inv.Guards {
			if !scenarios.KnownRequirement(id) {
				t.Errorf("%s guards unknown requirement %s", inv.Name, id)
			}
		}
		if got, ok := oracle.Lookup(inv.Name); !ok || got.Name != inv.Name {
			t.Errorf("Lookup(%s) failed", inv.Name)
		}
	}
	if _, ok := oracle.Lookup("INV-NONE"); ok {
		t.Error("Lookup found an unknown name")
	}
	cat[0].Name = "changed"
	if oracle.Catalogue()[0].Name == "changed" {
		t.Error("Catalogue returned its own storage")
	}
}

func TestVerdictText(t *testing.T) {
	base := baseTimed(t)
	ok := oracle.Check(base, oracle.Options{})
	if ok.String() != "oracle: ok" || !ok.OK() || ok.First() != nil || ok.Records != len(base.Records) {
		t.Fatalf("ok verdict: %q %+v", ok.String(), ok)
	}
	m := mutate(t, base)
	i := m.find(0, "host out send c2.1 cancel ev=e1")
	frameAt(m, i, func(sf *wire.SendFrame) { sf.Gen = 5 })
	v := oracle.Check(m.tr, oracle.Options{})
	want := "\n  INV-GW-GENERATION at " + pad(i) + ": cancel ev=e1 sent to c2.5, a generation that is not live\n    " + m.tr.Records[i].String()
	if !strings.HasPrefix(v.String(), "oracle: violation\n") || !strings.Contains(v.String(), want) {
		t.Fatalf("verdict text:\n%s\nwant prefix:\n%s", v, want)
	}
	if v.Status != oracle.Violation || v.First().Invariant == "" || !v.Has("INV-GW-GENERATION") || v.Has("INV-NONE") {
		t.Fatalf("%+v", v)
	}
}

func pad(n int) string {
	s := strings.Repeat("0", 4) + itoa(n)
	return s[len(s)-4:]
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func TestBudgets(t *testing.T) {
	base := baseTimed(t)
	v := oracle.Check(base, oracle.Options{MaxRecords: 20})
	if v.Status != oracle.Unknown || !strings.Contains(v.String(), "oracle: unknown: record budget of 20 spent at 0020") || v.Records != 20 {
		t.Fatalf("record budget: %s (%d records)", v, v.Records)
	}
	v = oracle.Check(base, oracle.Options{MaxFoldEvents: 3})
	if v.Status != oracle.Unknown || !strings.Contains(v.Reason, "fold budget of 3 events") {
		t.Fatalf("fold budget: %s", v)
	}
	// a violation before the budget ran out is definite
	m := mutate(t, base)
	i := m.find(0, "host out send c2.1 cancel ev=e1")
	frameAt(m, i, func(sf *wire.SendFrame) { sf.Gen = 5 })
	if v := oracle.Check(m.tr, oracle.Options{MaxRecords: i + 2}); v.Status != oracle.Violation {
		t.Fatalf("violation then budget: %s", v)
	}
}

func TestOnlySkipAndFold(t *testing.T) {
	m := mutate(t, baseTimed(t))
	i := m.find(0, "host out send c1.1 session s1 events=11..13")
	update(m, i, func(u *wire.SessionUpdate) {
		rows := append([]wire.PendingRow(nil), u.Questions.Active...)
		rows[0].State = wire.StateOpen
		u.Questions.Active = rows
	})
	if v := oracle.Check(m.tr, oracle.Options{}); !v.Has("INV-PROJ-REFOLD") {
		t.Fatalf("refold did not fire: %s", v)
	}
	if v := oracle.Check(m.tr, oracle.Options{Skip: []string{"INV-PROJ-REFOLD"}}); !v.OK() {
		t.Fatalf("skipped: %s", v)
	}
	if v := oracle.Check(m.tr, oracle.Options{Only: []string{"INV-GW-CANCEL"}}); !v.OK() {
		t.Fatalf("only: %s", v)
	}
	if v := oracle.Check(m.tr, oracle.Options{NoFold: true}); !v.OK() {
		t.Fatalf("no fold: %s", v)
	}
	// a custom whole-log fold is used in place of the reference projection
	calls := 0
	fold := func(events []session.Event, inherited int) wire.QuestionsView {
		calls++
		return wire.QuestionsView{}
	}
	if v := oracle.Check(baseTimed(t), oracle.Options{Fold: fold}); !v.Has("INV-PROJ-REFOLD") || calls == 0 {
		t.Fatalf("custom fold: %d calls, %s", calls, v)
	}
}

// A Checker reused across traces gives the same verdicts as fresh checks.
func TestCheckerReuse(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		tr, opts, err := genRun(seed, true)
		if err != nil {
			t.Fatal(err)
		}
		c2 := oracle.NewChecker(opts)
		if a, b := c2.Check(tr).String(), oracle.Check(tr, opts).String(); a != b {
			t.Fatalf("seed %d: %s vs %s", seed, a, b)
		}
		if a, b := c2.Check(tr).String(), c2.Check(tr).String(); a != b {
			t.Fatalf("seed %d: reuse %s vs %s", seed, a, b)
		}
	}
}

func BenchmarkCheck(b *testing.B) {
	tr, opts, err := genRun(3, true)
	if err != nil {
		b.Fatal(err)
	}
	c := oracle.NewChecker(opts)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Check(tr)
	}
	b.ReportMetric(float64(len(tr.Records)), "records/trace")
}
