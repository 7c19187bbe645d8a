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
