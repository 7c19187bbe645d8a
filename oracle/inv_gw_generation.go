package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-GW-GENERATION (GW-7, GW-5): frames go only to a client's live generation: Ready once,
// as the first frame after a connect, with a rising generation; nothing after a disconnect
// or a restart until the next Ready; stream frames only for a stream the client opened on
// that generation and that has not ended. The generations and streams are the gateway
// model's (gateway.go); a frame refused here leaves it as it is.

// gwGenerationReady: a Ready frame to cn (before the model takes its generation).
func (c *Checker) gwGenerationReady(i int, x wire.SendFrame, cn *conn, rd wire.Ready) {
	switch {
	case c.ap.connect != cn || !cn.connecting:
		c.fail(invGWGeneration, i, "Ready to "+x.Client+"."+strconv.Itoa(x.Gen)+" outside the Apply of its Connect (or twice)")
	case rd.Gen != x.Gen:
		c.fail(invGWGeneration, i, "Ready gen="+strconv.Itoa(rd.Gen)+" sent on generation "+strconv.Itoa(x.Gen))
	case x.Gen <= cn.maxGen:
		c.fail(invGWGeneration, i, "generation "+strconv.Itoa(x.Gen)+" of "+x.Client+" does not rise above "+strconv.Itoa(cn.maxGen), cn.readyRec)
	}
}

// gwGenerationLive: any other frame goes to the live generation. false: refused.
func (c *Checker) gwGenerationLive(i int, x wire.SendFrame, cn *conn) bool {
	if cn.connected && x.Gen == cn.gen {
		return true
	}
	why := "a generation that is not live"
	if cn.connecting && c.ap.connect == cn {
		why = "a new generation before its Ready"
	}
	c.fail(invGWGeneration, i, x.Frame.String()+" sent to "+x.Client+"."+strconv.Itoa(x.Gen)+", "+why)
	return false
}

// gwGenerationItem: an item on stream st of k. false: refused.
func (c *Checker) gwGenerationItem(i int, k connKey, f wire.StreamItem, st *stream) bool {
	if st == nil || st.ended {
		c.fail(invGWGeneration, i, "item on stream "+f.StreamID+" of "+k.String()+", which is not open")
		return false
	}
	return true
}

// gwGenerationEnd: a stream end or error for st of k. false: refused.
func (c *Checker) gwGenerationEnd(i int, k connKey, f wire.Frame, st *stream) bool {
	if st == nil || st.ended {
		c.fail(invGWGeneration, i, f.String()+" of "+k.String()+" for a stream that is not open")
		return false
	}
	return true
}
