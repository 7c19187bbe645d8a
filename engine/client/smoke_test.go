package client

import (
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

func TestSmokeTimedAnswer(t *testing.T) {
	x := newH(t)
	x.timedCard(0, 2000)
	t.Log(x.card("c1"))
	if got := x.next(); got != 2000 {
		t.Fatalf("next deadline %d", got)
	}
	expect(t, x.user(100, wire.ActChoose, "label=bun"))
	t.Log(x.card("c1"))
	expect(t, x.user(200, wire.ActSubmit),
		`result gen=1 rpc=c1-r1 ev=e1 result {"answers":[{"id":"pkg","selected":["bun"]}]}`)
	t.Log(x.card("c1"))
	expect(t, x.at(300, end("c1-s1")))
	t.Log(x.c.State().Drafts)
}
