package client

import (
	"strings"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// replyAnswer is one answer of a recorded late reply.
type replyAnswer struct {
	id       string
	selected []string
	custom   *string
}

// replyPairsOf reads a recorded reply's text (docs/PEER.md §6.9): non-JSON, or no questions
// array, gives nothing; question entries need string id and question (others skipped),
// answer entries a string id and an array selected (filtered to strings).
func (rd *reader) replyPairsOf(text string) ([]wire.Question, []replyAnswer) {
	top, ok := rd.object(text)
	if !ok {
		return nil, nil
	}
	items := top.Get("questions")
	if !items.IsArray() {
		return nil, nil
	}
	var qs []wire.Question
	for _, f := range items.Items() {
		id, ok1 := f.Get("id").Str()
		text, ok2 := f.Get("question").Str()
		if !f.IsObject() || !ok1 || !ok2 {
			continue
		}
		q := wire.Question{ID: id, Question: text}
		// The optional fields are copied to the heap only when present (a variable whose
		// address is taken would be allocated for every question).
		if d, ok := f.Get("detail").Str(); ok {
			q.Detail = new(string)
			*q.Detail = d
		}
		if h, ok := f.Get("header").Str(); ok {
			q.Header = new(string)
			*q.Header = h
		}
		if opts, ok := options(f.Get("options"), false); ok {
			q.Options = opts
		}
		if m, ok := f.Get("multiSelect").Bool(); ok {
			q.MultiSelect = new(bool)
			*q.MultiSelect = m
		}
		qs = append(qs, q)
	}
	var as []replyAnswer
	if list := top.Get("answers"); list.IsArray() {
		for _, f := range list.Items() {
			id, ok := f.Get("id").Str()
			sel := f.Get("selected")
			if !f.IsObject() || !ok || !sel.IsArray() {
				continue
			}
			a := replyAnswer{id: id}
			for _, s := range sel.Items() {
				if v, ok := s.Str(); ok {
					a.selected = append(a.selected, v)
				}
			}
			if cu, ok := f.Get("custom").Str(); ok {
				a.custom = new(string)
				*a.custom = cu
			}
			as = append(as, a)
		}
	}
	return qs, as
}

// replyAnswerValues: the selected labels, then the trimmed custom text when not blank.
func replyAnswerValues(as []replyAnswer, id string) []string {
	for _, a := range as {
		if a.id != id {
			continue
		}
		vs := append([]string(nil), a.selected...)
		if a.custom != nil {
			if t := trimSpace(*a.custom); t != "" {
				vs = append(vs, t)
			}
		}
		return vs
	}
	return nil
}

// nodes are the Session's late-reply nodes: one per user/message whose source identifies
// a reply (kind user-question-reply, a call id, outcome answered: NODE-1), never an
// ordinary message with the same JSON. The text is parsed for presentation; an
// unreadable payload keeps its raw text (NODE-2).
func nodes(rd *reader, s *sessionView, mutants mutant.Set) []wire.NodeState {
	var out []wire.NodeState
	for _, e := range s.events() {
		um, ok := e.Data.(session.UserMessage)
		if !ok {
			continue
		}
		call := um.Message.Source.CallID
		if !um.Message.Source.IsQuestionReply() {
			switch {
			case mutants.Has(mutant.NodeIgnoresOutcome) && um.Message.Source.Kind == session.SourceUserQuestionReply && call != "":
				// MUTANT node-ignores-outcome: the source kind alone makes a node.
			case mutants.Has(mutant.NodeByText) && !um.Message.NoText && rd.replyCallOf(um.Message.Text) != "":
				// MUTANT node-by-text: a message whose text is a late reply's JSON is drawn as one.
				call = rd.replyCallOf(um.Message.Text)
			default:
				continue
			}
		}
		text := ""
		if !um.Message.NoText {
			text = um.Message.Text
		}
		n := wire.NodeState{Session: s.id, Seq: e.Seq, CallID: call, Text: text,
			MessageID: um.Message.ID, Time: e.Time, Outcome: um.Message.Source.Outcome}
		qs, as := rd.replyPairsOf(text)
		n.Questions = qs
		for _, q := range qs {
			head := q.Question
			if q.Header != nil && *q.Header != "" && *q.Header != q.Question {
				head = *q.Header + " — " + q.Question
			}
			if vs := replyAnswerValues(as, q.ID); len(vs) > 0 {
				n.Lines = append(n.Lines, head+": "+strings.Join(vs, ", "))
			} else {
				n.Lines = append(n.Lines, head+": Skipped")
			}
		}
		if len(n.Lines) == 0 && mutants.Has(mutant.NodeDropsUnreadableText) {
			n.Text = "" // MUTANT node-drops-unreadable-text
		}
		out = append(out, n)
	}
	return out
}

// replyCallOf is the callId of a text that reads as a late reply's JSON (kind
// answer_to_pending_question), "" otherwise (MUTANT node-by-text).
func (rd *reader) replyCallOf(text string) string {
	top, ok := rd.object(text)
	if !ok {
		return ""
	}
	if kind, _ := top.Get("kind").Str(); kind != "answer_to_pending_question" {
		return ""
	}
	id, _ := top.Get("callId").Str()
	return id
}
