package harness

import (
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

func init() { registerCheck(scenarios.ExpectReply, checkReply) }

// checkReply checks a reply expectation: the RPC replies the host sent a client.
func checkReply(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	what := whatOf(e, v)
	n := 0
	var seen []string
	for _, rec := range v.records {
		d, ok := rec.Payload.(wire.Reply)
		if !ok || rec.Kind != trace.Out || d.Client != e.Subject {
			continue
		}
		seen = append(seen, d.Envelope.String())
		switch {
		case e.Error != "":
			if d.Envelope.OK || d.Envelope.Error == nil || d.Envelope.Error.Code != e.Error {
				continue
			}
		case e.Value != "":
			if !d.Envelope.OK || !jsonEqual(string(d.Envelope.Value), e.Value) {
				continue
			}
		}
		n++
	}
	if len(seen) == 0 {
		seen = []string{"none"}
	}
	switch {
	case e.Count == nil && n == 0:
		r.fail(e, "%s: no matching reply (replies: %s)", what, strings.Join(seen, " "))
	case e.Count != nil && n != *e.Count:
		r.fail(e, "%s: %d matching replies, not %d (replies: %s)", what, n, *e.Count, strings.Join(seen, " "))
	}
}
