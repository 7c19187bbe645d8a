package client

import (
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

// BenchmarkTimedAnswer is one client's share of a typical run: connect, a timed request
// with its claim, two projection updates, focus, an edit, a submit, the claim's end and
// the settling update, then the final State.
func BenchmarkTimedAnswer(b *testing.B) {
	open := update("s1", view(qs(qPkg), "c1:open"), noInbox, logOf(toolCallEv("c1", timedAsk))...)
	done := update("s1", settledBun, noInbox, logOf(toolCallEv("c1", timedAsk), toolResultEv("c1", `{"answers":[{"id":"pkg","selected":["bun"]}]}`))...)
	inputs := []wire.ClientInput{
		ready(1), wf("e1", "s1", "c1", "timed", qPkg), item("c1-s1", 30000), open,
		wire.User{Action: act(wire.ActFocus)}, wire.User{Action: act(wire.ActChoose, "label=bun")},
		wire.User{Action: act(wire.ActSubmit)}, httpOK("c1-r1", ""), end("c1-s1"), done,
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c := New(Config{Name: "c1", Seed: uint64(i)})
		for j, in := range inputs {
			if _, err := c.Apply(wire.Time(j*100), in); err != nil {
				b.Fatal(err)
			}
		}
		_ = c.State()
	}
}
