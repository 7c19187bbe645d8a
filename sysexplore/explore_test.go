package sysexplore

import (
	"testing"
)

func TestSmallSearchRuns(t *testing.T) {
	c, err := Load("small")
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range c.places {
		t.Logf("place %d: %s fault=%v actor=%q after=%d", i, p.text, p.fault, p.actor, p.after)
	}
	res, err := Search(c, Options{Depth: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res.Stats)
	for _, v := range res.Violations {
		t.Logf("violation %+v", v)
	}
}
