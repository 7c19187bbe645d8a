package oracle

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// The client model: what one reference client received and emitted, for the client-side
// invariants. A client's Out records belong to its last In record.

type clientModel struct {
	name    string
	gen     int
	events  map[string]*clientEvent
	streams map[string]*clientStream
	results map[string]*clientResult // by RPC id: outcomes awaiting their HTTP reply
	frozen  map[fgKey]bool           // edited or taken time on (CD-4): for good on this client

	cur        int
	submit     bool // the current input is the user's submit
	submitUsed bool
	cancelled  []*clientStream // claim streams the client cancelled in the current input
}

type clientEvent struct {
	id, session, call string
	timed, keyed      bool
	done              bool
	rec               int
}

type clientStream struct {
	id, session, call string
	gen               int
	openRec           int
	hasFrame          bool
	frameCT, rem      int64
	frameRec          int
	ended, cancelled  bool
}

type clientResult struct {
	key     fgKey
	eventID string
	rec     int
}

func (c *Checker) client(name string) *clientModel {
	cm := c.clients[name]
	if cm == nil {
		cm = &clientModel{name: name, events: map[string]*clientEvent{}, streams: map[string]*clientStream{},
			results: map[string]*clientResult{}, frozen: map[fgKey]bool{}}
		c.clients[name] = cm
	}
	return cm
}

func (cm *clientModel) claimFor(k fgKey) *clientStream {
	var found *clientStream
	for _, st := range cm.streams {
		if st.session == k.session && st.call == k.callID && st.gen == cm.gen {
			if found == nil || st.openRec > found.openRec {
				found = st
			}
		}
	}
	return found
}

func (c *Checker) clientInput(i int, r *trace.Record, in wire.ClientInput) {
	cm := c.client(r.Actor)
	cm.cur, cm.submit, cm.submitUsed, cm.cancelled = i, false, false, cm.cancelled[:0]
	switch x := in.(type) {
	case wire.FromHost:
		switch f := x.Frame.(type) {
		case wire.Ready:
			cm.gen = f.Gen
			clear(cm.events)
			for _, st := range cm.streams {
				st.ended = true
			}
		case wire.Waterfall:
			ev := &clientEvent{id: f.EventID, session: f.AgentID, rec: i}
			if gev := c.events[f.EventID]; gev != nil {
				ev.call, ev.keyed, ev.timed = gev.callID, gev.keyed, gev.timed
			} else if req, err := wire.ParseQuestionRequest(f.Request); err == nil && req.Wait != nil {
				ev.call, ev.keyed, ev.timed = req.Wait.CallID, true, req.Wait.Timed
			}
			cm.events[f.EventID] = ev
		case wire.Cancel:
			if ev := cm.events[f.EventID]; ev != nil {
				ev.done = true
			}
			for id, res := range cm.results {
				if res.eventID == f.EventID {
					delete(cm.results, id) // withdrawn: its outcome no longer counts (CLAIM-6)
				}
			}
		case wire.StreamItem:
			if st := cm.streams[f.StreamID]; st != nil && !st.hasFrame {
				if rem, ok := remainingMs(f.Value); ok {
					st.hasFrame, st.frameCT, st.rem, st.frameRec = true, r.ClientTime, rem, i
				}
			}
		case wire.StreamEnd:
			if st := cm.streams[f.StreamID]; st != nil {
				st.ended = true
			}
		case wire.StreamError:
			if st := cm.streams[f.StreamID]; st != nil {
				st.ended = true
			}
		}
	case wire.FromHTTP:
		delete(cm.results, x.RPCID)
	case wire.LinkDown, wire.Reload:
		for _, st := range cm.streams {
			st.ended = true
		}
		clear(cm.events)
		clear(cm.results)
	case wire.User:
		a := x.Action
		switch a.Kind {
		case wire.ActSubmit, wire.ActNext:
			cm.submit = true // the primary button submits on the last question
		case wire.ActSkip:
			cm.submit = true // skip on the last question submits (spec §6.6)
			if k, ok := cm.cardKey(a); ok {
				cm.frozen[k] = true // a draft mutation (CD-4)
			}
		case wire.ActType, wire.ActChoose, wire.ActTakeTime:
			if k, ok := cm.cardKey(a); ok {
				cm.frozen[k] = true
			}
		}
	}
}

// cardKey resolves the card a user action names: a call id, or the composer seat when the
// client holds exactly one live timed request.
func (cm *clientModel) cardKey(a wire.UserAction) (fgKey, bool) {
	if a.Card != "" && a.Card[0] != '#' {
		if a.Session != "" {
			return fgKey{a.Session, a.Card}, true
		}
		for _, ev := range cm.events {
			if ev.call == a.Card {
				return fgKey{ev.session, ev.call}, true
			}
		}
		for _, st := range cm.streams {
			if st.call == a.Card {
				return fgKey{st.session, st.call}, true
			}
		}
		return fgKey{}, false
	}
	if a.Card != "" {
		return fgKey{}, false
	}
	var k fgKey
	n := 0
	for _, ev := range cm.events {
		if ev.timed && !ev.done && (a.Session == "" || a.Session == ev.session) {
			k, n = fgKey{ev.session, ev.call}, n+1
		}
	}
	return k, n == 1
}

func (c *Checker) clientEffect(i int, r *trace.Record, e wire.ClientEffect) {
	cm := c.client(r.Actor)
	switch x := e.(type) {
	case wire.SendResult:
		ev := cm.events[x.EventID]
		if x.Outcome.Kind == wire.OutcomeResult {
			if !cm.submit || cm.submitUsed {
				c.fail(invClientNoManufacturedReply, i, cm.name+": answered ev="+x.EventID+" in response to "+c.recs[cm.cur].Payload.String()+
					", not to a submit of its user", cm.cur)
			}
			cm.submitUsed = true
		}
		if x.Outcome.Kind == wire.OutcomeRejected && x.Outcome.Error.HasCode(wire.AskCancelled) && ev != nil && ev.keyed {
			c.fail(invClientNoManufacturedReply, i, cm.name+": rejected keyed request ev="+x.EventID+" ("+ev.call+") with ASK_CANCELLED: closing a keyed card records nothing", cm.cur)
		}
		if ev == nil {
			return
		}
		k := fgKey{ev.session, ev.call}
		if ev.timed {
			st := cm.claimFor(k)
			switch x.Outcome.Kind {
			case wire.OutcomeResult, wire.OutcomeRejected:
				if st == nil {
					c.fail(invClientClaimDiscipline, i, cm.name+": sent "+x.Outcome.String()+" for timed ev="+x.EventID+" without opening attachWait for "+ev.call+" first", ev.rec)
				}
				for _, cs := range cm.cancelled {
					if cs.session == k.session && cs.call == k.callID {
						c.fail(invClientClaimDiscipline, i, cm.name+": released its claim on "+ev.call+" in the same input, just before sending its outcome", cm.cur)
					}
				}
				if fh, ok := c.recs[cm.cur].Payload.(wire.FromHost); !ok || !isCancelOf(fh.Frame, x.EventID) {
					cm.results[x.RPCID] = &clientResult{key: k, eventID: x.EventID, rec: i}
				}
			case wire.OutcomeNext:
				if st != nil && !st.ended && !st.cancelled {
					c.fail(invClientClaimDiscipline, i, cm.name+": delegated timed ev="+x.EventID+" with next while still holding its claim stream "+st.id, st.openRec)
				}
			}
			if x.Outcome.Kind == wire.OutcomeRejected && x.Outcome.Error.HasCode(wire.AskTimedOut) {
				switch {
				case st == nil || !st.hasFrame:
					c.fail(invClientExpiry, i, cm.name+": countdown expiry for "+ev.call+" without a claim frame", ev.rec)
				case r.ClientTime < st.frameCT+st.rem:
					c.fail(invClientExpiry, i, cm.name+": countdown expiry for "+ev.call+" at client time "+strconv.FormatInt(r.ClientTime, 10)+
						", before "+strconv.FormatInt(st.frameCT, 10)+" + "+strconv.FormatInt(st.rem, 10), st.frameRec)
				case cm.frozen[k]:
					c.fail(invClientExpiry, i, cm.name+": countdown expiry for "+ev.call+", a card its user edited or took time on", st.frameRec)
				}
			}
		}
		ev.done = true
	case wire.OpenStream:
		if x.Endpoint == wire.EndpointAttachWait {
			s, call := waitArgs(x.Args)
			cm.streams[x.StreamID] = &clientStream{id: x.StreamID, session: s, call: call, gen: x.Gen, openRec: i}
		}
	case wire.CancelStream:
		st := cm.streams[x.StreamID]
		if st == nil || st.ended || st.cancelled {
			return
		}
		st.cancelled = true
		cm.cancelled = append(cm.cancelled, st)
		for _, res := range cm.results {
			if res.key.session == st.session && res.key.callID == st.call {
				c.fail(invClientClaimDiscipline, i, cm.name+": released its claim on "+st.call+" before the host acknowledged the outcome it sent", res.rec)
				break
			}
		}
	case wire.SendCall:
		if x.Endpoint == wire.EndpointAnswer {
			if !cm.submit || cm.submitUsed {
				c.fail(invClientNoManufacturedReply, i, cm.name+": sent a late answer in response to "+c.recs[cm.cur].Payload.String()+", not to a submit of its user", cm.cur)
			}
			cm.submitUsed = true
		}
	}
}

func isCancelOf(f wire.Frame, ev string) bool {
	c, ok := f.(wire.Cancel)
	return ok && c.EventID == ev
}
