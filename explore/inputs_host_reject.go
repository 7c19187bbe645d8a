package explore

import (
	"strconv"

	"github.com/twosettle/twosettle/scenarios"
)

// foreignRejections are rejections no reference client sends (those send ASK_CANCELLED,
// ASK_TIMED_OUT, ASK_ABORTED or the plain "the foreground question wait ended" the host
// ignores), as another answer UI could: plain errors of other names, a UserQuestionError
// with no code (not a domain error), and domain errors with a code of the UI's own. The
// service restores each as ASK-5 says (INV-REJECTION-RESTORED).
var foreignRejections = []string{
	"Error: the answer panel crashed",
	"TypeError: cannot read the question list",
	"UserQuestionError: a rejection with no code",
	"UserQuestionError/ASK_CANCELLED: the user closed the window",
	"UserQuestionError/UI_REFUSED: the user refused to answer here",
}

// hostRejections injects, below the reference client, one rejection of a delivery while
// its request may still be pending (issue 12, ASK-5): a client rejects event eK, K the
// place of a blocking call (no deadline) among the model's asks (event ids follow the
// host's deliveries, so the guess may name another request, which is as good an input).
// Timed calls are left alone so that they still go continued for the late-answer paths
// other mutants live in. Drawn after every other input, so the rest of a seed's scenario
// is what it would be without it.
func (g *gen) hostRejections() {
	r := g.r
	var blocking []int // calls with no deadline: a timed call is left to go continued
	for k, c := range g.calls {
		if c.timeoutMs < 0 {
			blocking = append(blocking, k)
		}
	}
	if len(g.clients) == 0 || len(blocking) == 0 || !chance(r, 25) {
		return
	}
	k := pick(r, blocking)
	c := g.calls[k]
	cl := pick(r, g.clients)
	at := c.at + scenarios.Duration(between(r, 20, 3000))
	g.add(at, scenarios.Step{Inject: &scenarios.Inject{Client: cl.name, Event: "e" + strconv.Itoa(k+1), Rejected: pick(r, foreignRejections)}})
}
