package scenarios

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A list of errors cut at maxErrors says how many more there were, last.
func TestACappedErrorListSaysHowManyMore(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: many-errors\nsummary: x\n")
	for i := 0; i < maxErrors+12; i++ {
		fmt.Fprintf(&b, "unknown%d: 1\n", i)
	}
	_, err := Decode("many.yaml", []byte(b.String()))
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("err = %v", err)
	}
	if len(es) != maxErrors+1 {
		t.Fatalf("%d errors listed, want %d and the count of the rest", len(es), maxErrors+1)
	}
	last := es[len(es)-1].Error()
	if !strings.HasPrefix(last, "many.yaml: 12 more errors not listed: only the first 50 are") {
		t.Fatalf("last entry %q", last)
	}
	if s := err.Error(); strings.Count(s, "not listed") != 1 {
		t.Fatalf("the count is not said once:\n%s", s)
	}
}

// A seed too large for 64 bits gets a hint with the seeds there are: none negative.
func TestTheSeedHintOffersNoNegativeSeed(t *testing.T) {
	_, err := Decode("s.yaml", []byte("name: s\nsummary: x\nseed: 99999999999999999999999\nsteps:\n  - {at: 0s, model: {prompt: go}}\n"))
	if err == nil || !strings.Contains(err.Error(), "from 0 to 9223372036854775807") || strings.Contains(err.Error(), "-9223372036854775808") {
		t.Fatalf("err = %v, want a hint from 0", err)
	}
}
