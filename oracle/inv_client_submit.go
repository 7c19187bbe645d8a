package oracle

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-CLIENT-SUBMIT (CARD-5, CARD-6, CARD-7): what a card shows after its user submitted it
// (docs/PEER.md §6.6), at every probe and at the end:
//   - a waterfall submission has no acknowledgement: until the page reconciles the call
//     away, the call turns continued or a request for it arrives again, its card stays
//     busy and keeps the draft it sent (every question answered or skipped) (CARD-5);
//   - if the question turns continued during that submission (an update the page took
//     lists it continued with no reply of it queued), the controls re-arm: the card is not
//     busy and shows the resubmit hint, with the kept draft, until its user does anything
//     on this page, and a late-answer call that is that user's next action sends the
//     batch the waterfall submission sent (CARD-6);
//   - a late-answer RPC the host accepted steers the reply without settling, and the panel
//     closes: the card is not shown until something republishes it (a request for the call,
//     a continued row that may make its card again, the tool row's action, any of them
//     since the RPC was sent: a card made again meanwhile is not the one the reply closes)
//     (CARD-7).

// clientSubmits is the oracle's model of one page's submissions.
type clientSubmits struct {
	wf       map[fgKey]*wfSubmit // waterfall submissions the page has not reconciled away
	rpc      map[string]rpcSent  // late-answer RPCs awaiting their reply, by RPC id
	accepted map[fgKey]rpcSent   // call -> the late-answer RPC the host accepted last
	shownAt  map[fgKey]int       // call -> record of the last update that may (re)make its card
	user     int                 // record of the page's last user action (-1 none)
	prevUser int                 // the one before it
	skip     bool                // the last user action was a skip (it edits before it submits)
	reopen   int                 // record of the page's last tool-row action (-1 none)
}

type rpcSent struct {
	key       fgKey
	sent, rep int // the SendCall and its accepted reply
}

type wfSubmit struct {
	rec  int // the SendResult
	sent any // the answers it sent, decoded
	cont int // the update that turned the call continued (0: not yet)
	rpc  bool
	// was: the card was continued already when it was submitted (a reused call id's new
	// request attached a waterfall to a continued card): no transition re-arms it until an
	// open row moved it back
	was bool
}

func (s *clientSubmits) reload() {
	*s = clientSubmits{wf: map[fgKey]*wfSubmit{}, rpc: map[string]rpcSent{}, accepted: map[fgKey]rpcSent{}, shownAt: map[fgKey]int{}, user: -1, prevUser: -1, reopen: -1}
}

// submitted records a waterfall result the page sent for a user's submit; v is the
// page's last view of the Session (nil none).
func (s *clientSubmits) submitted(i int, k fgKey, v *clientView, value []byte) {
	w := &wfSubmit{rec: i}
	var ans struct {
		Answers any `json:"answers"`
	}
	if json.Unmarshal(value, &ans) == nil {
		w.sent = ans.Answers
	}
	if v != nil {
		for _, r := range v.questions.Active {
			if r.CallID == k.callID && r.State == wire.StateContinued {
				w.was = true
			}
		}
	}
	s.wf[k] = w
}

// answerSent records a late-answer RPC sent at record i.
func (s *clientSubmits) answerSent(i int, id string, k fgKey) {
	s.rpc[id] = rpcSent{key: k, sent: i}
	if w := s.wf[k]; w != nil {
		w.rpc = true
	}
}

// answerReply records the HTTP reply to a late-answer RPC.
func (s *clientSubmits) answerReply(i int, id string, env wire.Envelope) {
	sent, ok := s.rpc[id]
	if !ok {
		return
	}
	delete(s.rpc, id)
	if env.OK && !bytes.Equal(bytes.TrimSpace(env.Value), []byte("false")) {
		sent.rep = i
		s.accepted[sent.key] = sent
	}
}

// userAction records a user action of the page.
func (s *clientSubmits) userAction(i int, a wire.UserAction) {
	s.prevUser, s.user, s.skip = s.user, i, a.Kind == wire.ActSkip
	if a.Kind == wire.ActReopen {
		s.reopen = i
	}
}

// updated records a SessionUpdate: a continued row with no reply of it queued turns its
// waterfall submission continued and may make its card again; a call neither listed
// that way nor held by a live request is swept, and its submission with it.
func (s *clientSubmits) updated(i int, f wire.SessionUpdate, v *clientView, held map[string]bool) {
	for _, r := range f.Questions.Active {
		k := fgKey{f.Session, r.CallID}
		w := s.wf[k]
		if r.State == wire.StateContinued && usableRow(r) && !v.queuedFor(r.CallID) {
			s.shownAt[k] = i
			if w != nil && w.cont == 0 && !w.was {
				w.cont = i
			}
		} else if r.State == wire.StateOpen && usableRow(r) && w != nil {
			w.was = false
		}
	}
	for k := range s.wf {
		if k.session == f.Session && !sweepKeeps(v, k.callID) && !held[k.callID] {
			delete(s.wf, k)
		}
	}
}

func (c *Checker) clientSubmit(i int, cm *clientModel, cs *wire.ClientState) {
	if !c.on(invClientSubmit) || cm.torn {
		return
	}
	s := &cm.submits
	for _, k := range cs.Cards {
		if k.CallID == "" || k.Kind == "review" {
			continue
		}
		key := fgKey{k.Session, k.CallID}
		if !cm.page.followed(k.Session) {
			continue
		}
		req, hasReq := cm.page.reqAt[key]
		if w := s.wf[key]; w != nil && (!hasReq || req < w.rec) {
			switch {
			case w.cont == 0 && (!k.Busy || !draftComplete(k.Draft)):
				c.fail(invClientSubmit, i, cm.name+": card "+k.Key+" shows "+cardBusyText(k)+" after its waterfall submission, before the page reconciled it: "+
					"a waterfall answer has no acknowledgement, the card stays busy with its draft", w.rec)
				return
			case w.cont > 0 && !w.rpc && s.user < w.cont && (k.Busy || k.Hint == "" || !draftComplete(k.Draft)):
				c.fail(invClientSubmit, i, cm.name+": card "+k.Key+" turned continued during its waterfall submission but shows "+cardBusyText(k)+
					": its controls re-arm with the resubmit hint and the kept draft", w.cont)
				return
			}
		}
		// Anything since the RPC was sent may have made the card again (the reply then
		// closes nothing: its card is gone) or republished it.
		if a, ok := s.accepted[key]; ok && k.Shown && (!hasReq || req < a.sent) && s.shownAt[key] < a.sent && s.reopen < a.sent {
			c.fail(invClientSubmit, i, cm.name+": card "+k.Key+" is still shown after the host accepted its late answer: the panel closes", a.rep)
			return
		}
	}
}

// draftComplete reports whether a card's draft text answers or skips every question
// ("-" marks one not answered yet).
func draftComplete(d string) bool {
	return !strings.Contains(d, "=-}") && !strings.Contains(d, "=- ")
}

func cardBusyText(k wire.CardState) string {
	s := "busy=" + strconv.FormatBool(k.Busy) + " draft=" + k.Draft
	if k.Hint != "" {
		s += " hint=" + quoteText(k.Hint)
	}
	return s
}

// clientResubmit checks a late-answer call the page sends (CARD-6): when it is its
// user's first action since the call turned continued during a waterfall submission
// (and not a skip, which edits first), it sends the kept draft: the batch the waterfall
// submission sent.
func (c *Checker) clientResubmit(i int, cm *clientModel, k fgKey, answers []byte) {
	s := &cm.submits
	w := s.wf[k]
	if !c.on(invClientSubmit) || w == nil || w.cont == 0 || w.rpc || w.sent == nil || s.user != cm.cur || s.prevUser >= w.cont || s.skip {
		return
	}
	if req, ok := cm.page.reqAt[k]; ok && req > w.rec {
		return
	}
	var got any
	if json.Unmarshal(answers, &got) != nil || !reflect.DeepEqual(got, w.sent) {
		c.fail(invClientSubmit, i, cm.name+": resubmitted "+k.session+"/"+k.callID+" by RPC with "+quoteText(string(answers))+
			", not the draft its waterfall submission kept", w.rec)
	}
}
