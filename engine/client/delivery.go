package client

import (
	"encoding/json"
	"math"
	"slices"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/wire"
)

// Listener phases of one forwarded request (docs/PEER.md §6.4).
const (
	phHandshake = iota // the claim stream is open, its first frame has not arrived
	phListening        // the channel is attached to the card
	phDone             // the outcome is decided (sent, or withheld because the delivery aborted)
)

// msgWaitEnded is the plain Error the listener rejects with when its claim stream ends
// before the user answered (CLAIM-6, docs/PEER.md §8.11).
const msgWaitEnded = "the foreground question wait ended"

// delivery is the client's listener for one waterfall delivery of its generation.
type delivery struct {
	seq     int // arrival order in the page
	gen     int
	eventID string
	session string
	card    *card
	claim   *stream // nil: no claim (an untimed or unkeyed request)
	phase   int
	aborted bool // the delivery signal aborted: cancel frame or generation end
	// inFlight: the outcome was sent and its HTTP reply has not come; until it does the
	// claim is kept (CLAIM-2). releaseOnReply: something that releases claims (teardown)
	// came meanwhile, so the claim is released when that reply comes.
	inFlight       bool
	releaseOnReply bool
	result         rpcCall // the $events/result request of its outcome
	claimv         stream  // claim's storage
}

// stream is one attachWait claim stream.
type stream struct {
	seq    int // opening order in the page
	id     string
	gen    int
	d      *delivery
	frames int
	open   bool // no terminal frame arrived and the client has not cancelled it
}

func (c *Client) onFrame(f wire.Frame) {
	switch f := f.(type) {
	case wire.Ready:
		c.onReady(f.Gen)
	case wire.Waterfall:
		c.onWaterfall(f)
	case wire.Cancel:
		if d := c.page.deliveries.at(f.EventID); d != nil {
			c.abort(d, true)
		}
	case wire.StreamItem:
		if s := c.page.streams.at(f.StreamID); s != nil {
			c.onStreamItem(s, f.Value)
		}
	case wire.StreamEnd:
		if s := c.page.streams.at(f.StreamID); s != nil {
			c.onStreamEnd(s, nil)
		}
	case wire.StreamError:
		if s := c.page.streams.at(f.StreamID); s != nil {
			c.onStreamEnd(s, &wire.Error{Name: "RemoteError", Code: f.Code, Message: f.Message})
		}
	case wire.SessionUpdate:
		c.onSessionUpdate(f)
	}
}

// onReady starts a generation. A Ready while a generation is live ends that one first,
// as a replaced socket does; a repeated Ready of the live generation is ignored.
func (c *Client) onReady(gen int) {
	if c.page.connected {
		if gen == c.page.gen {
			return
		}
		c.endGeneration(false)
	}
	c.page.gen, c.page.connected = gen, true
}

// onLinkDown: the mux link is gone; every delivery aborts, every stream fails, and the
// client asks for a new link.
func (c *Client) onLinkDown() {
	if c.page.connected {
		c.endGeneration(false)
	}
	c.emit(wire.Dial{})
}

// failGeneration starts failing the live generation (a $events/result failed): every
// delivery whose outcome is not decided aborts (no outcome is sent; its claim is cancelled
// on the wire), later waterfalls of the generation are ignored (the next generation gets
// them as replays), and the claims of the outcomes already sent are kept: the generation
// ends when the last of them has its reply (resultsInFlight).
func (c *Client) failGeneration() {
	c.page.failing = true
	for _, d := range sortedDeliveries(&c.page.deliveries) {
		if d.phase != phDone {
			c.abort(d, true)
		}
	}
}

// resultsInFlight reports whether an outcome sent in the live generation still awaits its
// HTTP reply.
func (c *Client) resultsInFlight() bool {
	inFlight := false
	c.page.deliveries.each(func(_ string, d *delivery) bool {
		inFlight = d.inFlight
		return !inFlight
	})
	return inFlight
}

// releaseAfterOutcome releases d's claim now, or when the reply to its outcome comes if
// that outcome is still in flight (CLAIM-2).
func (c *Client) releaseAfterOutcome(d *delivery) {
	if d.inFlight {
		d.releaseOnReply = true
		return
	}
	c.release(d)
}

// endGeneration aborts every delivery of the generation (no outcome is sent for an
// aborted delivery) and forgets its streams. cancel: the link is still up (the client
// failed the generation itself), so each open claim is cancelled on the wire.
func (c *Client) endGeneration(cancel bool) {
	for _, d := range sortedDeliveries(&c.page.deliveries) {
		c.abort(d, cancel)
	}
	streams := c.page.streams.values()
	slices.SortFunc(streams, func(a, b *stream) int { return a.seq - b.seq }) // seqs are unique
	for _, s := range streams {
		if cancel && s.open {
			c.emit(wire.CancelStream{Gen: s.gen, StreamID: s.id})
		}
		s.open = false
		c.page.streams.del(s.id)
	}
	c.page.deliveries = table[*delivery]{}
	c.page.connected, c.page.failing = false, false
}

// onWaterfall is the answer listener (docs/PEER.md §6.4). Deliveries that this client cannot
// answer are handed on at once with next: another event, an unscoped request, a
// payload that is not a question request, or a torn-down questions UI.
func (c *Client) onWaterfall(f wire.Waterfall) {
	if !c.page.connected || c.page.failing || f.EventID == "" || c.page.deliveries.at(f.EventID) != nil {
		return
	}
	c.page.seqN++
	d := &delivery{seq: c.page.seqN, gen: c.page.gen, eventID: f.EventID, session: f.AgentID}
	c.page.deliveries.set(f.EventID, d)
	if f.Event != wire.EventQuestionsRequest || f.AgentID == "" || c.page.torn {
		c.finish(d, wire.Outcome{Kind: wire.OutcomeNext})
		return
	}
	req, ok := c.rd.parseRequest(f.Request)
	if !ok || len(req.Questions) == 0 {
		c.finish(d, wire.Outcome{Kind: wire.OutcomeNext})
		return
	}
	callID := ""
	if req.Wait != nil {
		callID = req.Wait.CallID
	}
	k := c.ensure(f.AgentID, req.Questions, callID)
	d.card = k
	k.requests++
	if req.Wait != nil && req.Wait.Timed && callID != "" {
		// CLAIM-1: the claim stream opens before the channel is attached.
		c.page.seqN++
		s := &d.claimv
		*s = stream{seq: c.page.seqN, id: c.mintStream(), gen: d.gen, d: d, open: true}
		d.claim = s
		c.page.streams.set(s.id, s)
		args := make([]byte, 0, len(`{"agentId":,"callId":}`)+len(f.AgentID)+len(callID)+4)
		args = wire.AppendJSONString(append(args, `{"agentId":`...), f.AgentID)
		args = append(wire.AppendJSONString(append(args, `,"callId":`...), callID), '}')
		c.emit(wire.OpenStream{Gen: d.gen, StreamID: s.id, Endpoint: wire.EndpointAttachWait, Args: args})
		d.phase = phHandshake
		return
	}
	d.phase = phListening
	c.attach(k, d, false, 0)
}

// attach attaches a delivery's channel to its card. A card whose earlier waterfall
// answer is still unconfirmed re-arms: the request is delivered again (a replay to a new
// generation), so that answer did not settle it.
func (c *Client) attach(k *card, d *delivery, timed bool, deadline int64) {
	if k.busy == viaWaterfall {
		k.busy, k.hint = viaNone, msgRedelivered
	}
	k.attachWaterfall(c.now, d, timed, deadline, c.mutants.Has(mutant.FocusLostAtHandshake))
}

func (c *Client) onStreamItem(s *stream, value json.RawMessage) {
	s.frames++
	d := s.d
	if s.frames == 1 && d.phase == phHandshake {
		// The claim's frame: the client deadline is its own now + remainingMs (CD-1).
		d.phase = phListening
		if ms, ok := c.rd.remainingMs(value); ok {
			c.attach(d.card, d, true, c.now+ms)
		} else {
			c.attach(d.card, d, false, 0)
		}
		return
	}
	// Any further item ends the claim as the peer's claim-ended task does.
	c.claimEnded(s, nil)
}

// onStreamEnd: the claim stream ended (err nil) or failed.
func (c *Client) onStreamEnd(s *stream, err *wire.Error) {
	s.open = false
	c.claimEnded(s, err)
}

// claimEnded runs when a claim's lifetime ends from the host's side.
func (c *Client) claimEnded(s *stream, err *wire.Error) {
	c.page.streams.del(s.id)
	d := s.d
	switch {
	case d.phase == phHandshake && err == nil:
		// No frame: no host wait remains. Delegate; the card stays (CLAIM-5).
		// MUTANT frameless-end-waits: the client keeps waiting for a frame instead.
		if !c.mutants.Has(mutant.FramelessEndWaits) {
			c.finish(d, wire.Outcome{Kind: wire.OutcomeNext})
		}
	case d.phase != phDone && err != nil:
		// A terminal claim-stream failure rejects the question (CLAIM-8).
		c.finish(d, wire.Outcome{Kind: wire.OutcomeRejected, Error: err})
	case d.phase == phListening:
		// The wait ended before the user answered (CLAIM-6); the host ignores it.
		c.finish(d, wire.Outcome{Kind: wire.OutcomeRejected, Error: wire.PlainError(msgWaitEnded)})
	}
	if s.open {
		s.open = false
		c.emit(wire.CancelStream{Gen: s.gen, StreamID: s.id})
	}
}

// remainingMs reads the claim frame {"remainingMs":N}.
func (rd *reader) remainingMs(v json.RawMessage) (int64, bool) {
	if ms, ok := plainRemainingMs(v); ok {
		return ms, true
	}
	top, ok := rd.object(string(v))
	if !ok {
		return 0, false
	}
	f, ok := top.Get("remainingMs").Num()
	if !ok || math.IsNaN(f) {
		return 0, false
	}
	ms := math.Floor(f)
	switch {
	case ms < 0:
		ms = 0
	case ms > 1<<52:
		ms = 1 << 52
	}
	return int64(ms), true
}

// plainRemainingMs reads the host's own claim frame, {"remainingMs":N} with N a plain
// integer of at most 15 digits, without a parse (the reader gives the same number: such
// an N is exact as a float64 and floor leaves it as it is); anything else is not read.
func plainRemainingMs(v []byte) (int64, bool) {
	const head = `{"remainingMs":`
	if len(v) < len(head)+2 || string(v[:len(head)]) != head || v[len(v)-1] != '}' {
		return 0, false
	}
	digits := v[len(head) : len(v)-1]
	if len(digits) > 15 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// finish decides a delivery's outcome and sends it unless the delivery aborted. The
// claim is released now only if it never got past its first frame; otherwise it is held
// until the host ends it (CLAIM-2). An unkeyed card ends with its waterfall (CARD-11).
func (c *Client) finish(d *delivery, out wire.Outcome) {
	if d.phase == phDone {
		return
	}
	handshake := d.phase == phHandshake
	d.phase = phDone
	if k := d.card; k != nil {
		k.detachWaterfall(d)
	}
	if !d.aborted {
		rpc := c.mintRPC()
		d.result = rpcCall{kind: rpcResult, gen: d.gen, d: d}
		c.page.rpcs.set(rpc, &d.result)
		d.inFlight = true
		c.emit(wire.SendResult{Gen: d.gen, RPCID: rpc, EventID: d.eventID, Outcome: out})
	}
	// MUTANT claim-released-on-local-return: the claim goes as soon as the outcome is sent.
	if handshake || !d.aborted && c.mutants.Has(mutant.ClaimReleasedOnLocalReturn) {
		c.release(d)
	}
	if k := d.card; k != nil {
		k.requests--
		if k.callID == "" {
			c.remove(k)
		}
	}
}

// release cancels d's claim stream if it is still open.
func (c *Client) release(d *delivery) {
	s := d.claim
	if s == nil || !s.open {
		return
	}
	s.open = false
	c.page.streams.del(s.id)
	if c.page.connected && s.gen == c.page.gen {
		c.emit(wire.CancelStream{Gen: s.gen, StreamID: s.id})
	}
}

// abort is the delivery signal aborting (a cancel frame, or the generation ending):
// nothing is sent for it, and the claim it combines with is released (cancelled on the
// wire when the link is still up). It alone decides nothing about the question (CARD-10).
func (c *Client) abort(d *delivery, cancelOnWire bool) {
	d.aborted = true
	if !cancelOnWire && d.claim != nil {
		d.claim.open = false
		c.page.streams.del(d.claim.id)
	}
	c.finish(d, wire.Outcome{})
	if cancelOnWire {
		c.release(d)
	}
}

// delegate hands a delivery on: the claim is released first, then next is sent (CLAIM-4).
func (c *Client) delegate(d *delivery) {
	c.release(d)
	c.finish(d, wire.Outcome{Kind: wire.OutcomeNext})
}

// expire is local countdown expiry: the channel is rejected with ASK_TIMED_OUT, the
// claim is held until the host ends it, the card stays (CLAIM-7, CD-6).
func (c *Client) expire(k *card) {
	d := k.waterfall
	k.detachWaterfall(d)
	c.finish(d, wire.Outcome{Kind: wire.OutcomeRejected, Error: wire.QuestionError(wire.AskTimedOut, wire.MsgAskTimedOut)})
}

// sortedDeliveries lists deliveries in arrival order.
func sortedDeliveries(t *table[*delivery]) []*delivery {
	out := t.values()
	slices.SortFunc(out, func(a, b *delivery) int { return a.seq - b.seq }) // seqs are unique
	return out
}
