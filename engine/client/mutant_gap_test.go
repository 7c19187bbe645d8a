package client

import (
	"strconv"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

// The client-side mutants on the paths issue 12's client-gap invariants guard: each case
// observes one rule with the correct client and with the mutant on; the mutant flips it, and
// unrelated mutants do not (checkMutantCases).
func TestGapMutantsFlipTheirRule(t *testing.T) {
	qText := wire.Question{ID: "why", Question: "Why?"}
	checkMutantCases(t, []mutantCase{
		{"waterfall-submit-acknowledged", "CARD-5 a waterfall submission stays busy", func(x *h) string {
			x.timedCard(0, 5000)
			x.user(100, wire.ActChoose, "label=npm")
			x.user(200, wire.ActSubmit)
			return "busy=" + strconv.FormatBool(x.card("c1").Busy)
		}, "busy=true"},
		{"continued-keeps-busy", "CARD-6 turning continued during a waterfall submission re-arms", func(x *h) string {
			x.timedCard(0, 5000)
			x.user(100, wire.ActChoose, "label=npm")
			x.user(200, wire.ActSubmit)
			x.at(300, update("s1", view([]wire.Question{qPkg}, "c1:continued"), wire.InboxView{}))
			k := x.card("c1")
			return "busy=" + strconv.FormatBool(k.Busy) + " hint=" + k.Hint
		}, "busy=false hint=" + msgResubmit},
		{"page-key-per-client", "CARD-3 an unkeyed card's key is new after a reload", func(x *h) string {
			x.at(0, ready(1))
			x.at(0, wf("e1", "s1", "", "", qPkg))
			before := x.c.State().Cards[0].Key
			x.at(100, wire.Reload{})
			x.at(100, ready(2))
			x.at(100, wf("e1", "s1", "", "", qPkg))
			return "same=" + strconv.FormatBool(before == x.c.State().Cards[0].Key)
		}, "same=false"},
		{"autofocus-ignores-countdown", "CD-8 no autofocus while a countdown runs", func(x *h) string {
			x.at(0, ready(1))
			x.at(0, wf("e1", "s1", "c1", "timed", qText))
			x.at(0, item("c1-s1", 5000))
			return "focus=" + strconv.FormatBool(x.card("c1").Focus)
		}, "focus=false"},
	})
}
