package client

import (
	"bytes"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/wire"
)

// HTTP request kinds.
const (
	rpcResult  = iota // $events/result
	rpcAnswer         // userQuestions/answer
	rpcDiscard        // inbox/discard
)

// rpcCall is one HTTP request awaiting its reply.
type rpcCall struct {
	kind int
	gen  int
	card *card     // rpcAnswer
	d    *delivery // rpcResult
}

// onHTTP handles the reply to one of the client's HTTP requests; a reply that matches
// nothing (an old page's, a duplicate) is ignored.
func (c *Client) onHTTP(id string, env wire.Envelope) {
	call := c.page.rpcs.at(id)
	if call == nil {
		return
	}
	c.page.rpcs.del(id)
	switch call.kind {
	case rpcResult:
		d := call.d
		d.inFlight = false
		if d.releaseOnReply {
			d.releaseOnReply = false
			c.release(d)
		}
		if !c.page.connected || call.gen != c.page.gen {
			return
		}
		// A failed $events/result fails the whole event generation (docs/PEER-RUNTIME.md §1.4):
		// its deliveries abort at once. The claims of outcomes already sent stay until
		// those outcomes have their replies (CLAIM-2); then the generation ends, its
		// claims are cancelled, and the client dials again.
		if !env.OK && !c.page.failing {
			c.failGeneration()
		}
		if c.page.failing && !c.resultsInFlight() {
			c.endGeneration(true)
			c.emit(wire.Dial{})
		}
	case rpcAnswer:
		k := call.card
		if c.page.byKey.at(k.key) != k || k.busy != viaRPC || k.busyRPC != id {
			return
		}
		k.busy, k.busyRPC = viaNone, ""
		switch {
		case !env.OK:
			k.hint = remoteMessage(env.Error)
		case bytes.Equal(bytes.TrimSpace(env.Value), []byte("false")):
			k.hint = msgNotAnswerable
		default:
			// Accepted: the reply is steered, nothing is settled yet, the panel closes (CARD-7).
			k.hint = ""
			if !c.mutants.Has(mutant.RPCAcceptKeepsPanel) { // MUTANT rpc-accept-keeps-panel
				c.hide(k)
			}
		}
	case rpcDiscard:
		// The inbox view that follows is what restores the card and the row (CARD-9, ROW-2).
	}
}

func remoteMessage(e *wire.RemoteError) string {
	switch {
	case e == nil:
		return "the request failed"
	case e.Message != "":
		return e.Message
	case e.Code != "":
		return e.Code
	}
	return "the request failed"
}
