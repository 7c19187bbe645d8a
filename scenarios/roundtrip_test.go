package scenarios

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestGeneratedScenariosAreValid keeps the generator honest: what it draws must pass
// Validate, or the round-trip property below would test nothing.
func TestGeneratedScenariosAreValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario().Draw(t, "scenario")
		if err := Validate(s); err != nil {
			t.Fatalf("generated an invalid scenario: %v\n%s", err, Encode(s))
		}
	})
}

// TestEncodeDecodeRoundTrip: Decode(Encode(s)) == s for random valid scenarios, and
// encoding is a fixed point (Encode(Decode(Encode(s))) == Encode(s)).
func TestEncodeDecodeRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario().Draw(t, "scenario")
		y := Encode(s)
		back, err := Decode("gen.yaml", y)
		if err != nil {
			t.Fatalf("the encoding does not decode: %v\n%s", err, y)
		}
		if d := cmp.Diff(s, back, ignorePos); d != "" {
			t.Fatalf("round trip changed the scenario (-want +got):\n%s\n%s", d, y)
		}
		if y2 := Encode(back); string(y2) != string(y) {
			t.Fatalf("encoding is not a fixed point:\n%s\n---\n%s", y, y2)
		}
	})
}

func TestEncodeWithComment(t *testing.T) {
	s := &Scenario{Name: "x", Summary: "y"}
	y := EncodeWithComment(s, SchemaLine("../schema.json"))
	want := "# yaml-language-server: $schema=../schema.json\nname: x\nsummary: y\n"
	if string(y) != want {
		t.Fatalf("got %q", y)
	}
	if _, err := Decode("c.yaml", y); err != nil {
		t.Fatal(err)
	}
}
