package mutant

import (
	"regexp"
	"strings"
	"testing"
)

var reqID = regexp.MustCompile(`^[A-Z]+-[0-9]+$`)

func TestRegistry(t *testing.T) {
	all := All()
	if len(all) < 15 {
		t.Fatalf("%d mutants, want at least 15", len(all))
	}
	seen := map[string]bool{}
	for _, in := range all {
		if in.Name == "" || strings.ToLower(in.Name) != in.Name || strings.ContainsAny(in.Name, " ,") || seen[in.Name] {
			t.Errorf("bad or repeated name %q", in.Name)
		}
		seen[in.Name] = true
		if in.Side != Host && in.Side != Client {
			t.Errorf("%s: side %q", in.Name, in.Side)
		}
		if in.Doc == "" || in.Source == "" || len(in.Breaks) == 0 {
			t.Errorf("%s: needs a doc, a source and the ids it breaks", in.Name)
		}
		for _, id := range in.Breaks {
			if !reqID.MatchString(id) {
				t.Errorf("%s: %q is not a requirement id", in.Name, id)
			}
		}
		got, ok := Lookup(in.Name)
		if !ok || got.ID != in.ID || in.ID.String() != in.Name {
			t.Errorf("Lookup(%s) = %+v, %v", in.Name, got, ok)
		}
		s, err := Parse(in.Name)
		if err != nil || s != Of(in.ID) || !s.Has(in.ID) || s.String() != in.Name {
			t.Errorf("Parse(%s) = %v, %v", in.Name, s, err)
		}
	}
}

func TestParse(t *testing.T) {
	if s, err := Parse(""); err != nil || !s.Empty() || s.String() != "" {
		t.Errorf(`Parse("") = %v, %v`, s, err)
	}
	s, err := Parse("cancel-to-winner, legacy-tracked")
	if err != nil || !s.Has(CancelToWinner) || !s.Has(LegacyTracked) || s.Has(NoReservation) {
		t.Errorf("list: %v, %v", s, err)
	}
	if s.String() != "legacy-tracked,cancel-to-winner" {
		t.Errorf("String in report order: %q", s.String())
	}
	if _, err := Parse("legacy-tracked,nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), "known:") {
		t.Errorf("unknown name: %v", err)
	}
	var zero Set
	for _, in := range All() {
		if zero.Has(in.ID) {
			t.Errorf("the zero set has %s", in.Name)
		}
	}
	if ID(0).String() != "" || ID(200).String() != "mutant(200)" || Of(0, 200) != 0 {
		t.Error("out-of-range ids")
	}
}
