package client

import (
	"slices"
	"strconv"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// conversation lays a Session's log out as the chat shows it (NODE-3, NODE-4):
//
//   - An ordinary user message that starts a turn is the turn's trigger: it stays at top
//     level, and the turn's disclosure follows it. Later ordinary messages of the turn
//     (steers) sit under the disclosure; messages outside any turn are top-level context.
//   - Tool calls and late-reply nodes are process content: consecutive ones form a
//     process group, under the turn's disclosure (or at top level outside any turn).
//   - A reply is claimed exclusively by the reply definition: it is never a trigger and
//     never an ordinary message, so it appears once, as a reply entry, even outside any
//     turn. It declares no position of its own: it is placed like any process content,
//     so a reply that opens a turn comes after that turn's disclosure, inside its group.
//   - Folding: an ended turn is folded as a whole; every process group is folded except
//     the latest group of a running turn. Reading a reply in an ended turn therefore
//     takes expanding the turn and then its group.
func conversation(s *sessionView, mutants mutant.Set) []wire.ConvEntry {
	log := s.events()
	if len(log) == 0 {
		return nil
	}
	var endedBuf [8]int
	ended := endedBuf[:0] // the turns with a turn/end (a Session has a few)
	// At most one disclosure per turn, and an entry plus a group per tool call or message.
	n := 0
	for _, e := range log {
		switch d := e.Data.(type) {
		case session.TurnStart:
			n++
		case session.ToolCall, session.UserMessage:
			n += 2
		case session.TurnEnd:
			if !slices.Contains(ended, d.Turn) {
				ended = append(ended, d.Turn)
			}
		}
	}
	out := make([]wire.ConvEntry, 0, n)
	var lastBuf [8]turnGroup
	lastGroup := lastBuf[:0] // entry index of each turn's latest group (turn 0: outside any turn)
	var parentsBuf [64]int
	parents := parentsBuf[:0] // scratch for the two lists below (on the stack for a short log)
	if 2*n > len(parentsBuf) {
		parents = make([]int, 0, 2*n)
	}
	parentTurn := parents[:0:n]         // per entry: the index of its turn disclosure, -1 none
	parentGroup := parents[n : n : 2*n] // per entry: the index of its group disclosure, -1 none
	add := func(e wire.ConvEntry, t, g int) {
		e.Session = s.id
		out = append(out, e)
		parentTurn = append(parentTurn, t)
		parentGroup = append(parentGroup, g)
	}
	turn, in, disc, group := 0, false, -1, -1
	var turnSeq int
	openTurn := func() {
		if in && disc < 0 {
			disc = len(out)
			add(wire.ConvEntry{Kind: wire.ConvTurn, Seq: turnSeq, Turn: turn, Ref: strconv.Itoa(turn)}, -1, -1)
		}
	}
	process := func(kind string, seq int, ref string) {
		openTurn()
		base := 0
		if in {
			base = 1
		}
		if group < 0 {
			group = len(out)
			lastGroup = setGroup(lastGroup, turn, group)
			add(wire.ConvEntry{Kind: wire.ConvGroup, Seq: seq, Turn: turn, Depth: base}, disc, -1)
		}
		add(wire.ConvEntry{Kind: kind, Seq: seq, Turn: turn, Depth: base + 1, Ref: ref}, disc, group)
	}
	for _, e := range log {
		switch d := e.Data.(type) {
		case session.TurnStart:
			turn, in, disc, group, turnSeq = d.Turn, true, -1, -1, e.Seq
		case session.TurnEnd:
			turn, in, disc, group = 0, false, -1, -1
		case session.ToolCall:
			process(wire.ConvTool, e.Seq, d.CallID)
		case session.UserMessage:
			if d.Message.Source.IsQuestionReply() {
				if in && disc < 0 && mutants.Has(mutant.ReplyPlacedAsTrigger) {
					// MUTANT reply-placed-as-trigger: the reply that opens the turn stands where
					// its trigger would, at top level before the disclosure.
					group = len(out)
					lastGroup = setGroup(lastGroup, turn, group)
					add(wire.ConvEntry{Kind: wire.ConvGroup, Seq: e.Seq, Turn: turn}, -1, -1)
					add(wire.ConvEntry{Kind: wire.ConvReply, Seq: e.Seq, Turn: turn, Depth: 1, Ref: d.Message.Source.CallID}, -1, group)
					openTurn()
					continue
				}
				process(wire.ConvReply, e.Seq, d.Message.Source.CallID)
				continue
			}
			group = -1
			switch {
			case in && disc < 0:
				add(wire.ConvEntry{Kind: wire.ConvMessage, Seq: e.Seq, Turn: turn, Ref: d.Message.ID}, -1, -1)
				openTurn()
			case in:
				add(wire.ConvEntry{Kind: wire.ConvMessage, Seq: e.Seq, Turn: turn, Depth: 1, Ref: d.Message.ID}, disc, -1)
			default:
				add(wire.ConvEntry{Kind: wire.ConvMessage, Seq: e.Seq, Ref: d.Message.ID}, -1, -1)
			}
		}
	}
	for i := range out {
		switch out[i].Kind {
		case wire.ConvTurn:
			out[i].Folded = slices.Contains(ended, out[i].Turn)
		case wire.ConvGroup:
			t := out[i].Turn
			out[i].Folded = parentTurn[i] < 0 || slices.Contains(ended, t) || groupOf(lastGroup, t) != i
		}
	}
	for i := range out {
		v := true
		if t := parentTurn[i]; t >= 0 && out[t].Folded {
			v = false
		}
		if g := parentGroup[i]; g >= 0 && out[g].Folded {
			v = false
		}
		out[i].Visible = v
	}
	return out
}

// turnGroup is a turn's latest group entry.
type turnGroup struct{ turn, entry int }

func setGroup(gs []turnGroup, turn, entry int) []turnGroup {
	for i := range gs {
		if gs[i].turn == turn {
			gs[i].entry = entry
			return gs
		}
	}
	return append(gs, turnGroup{turn, entry})
}

// groupOf is the latest group entry of turn (0, as a missing map entry read, when none).
func groupOf(gs []turnGroup, turn int) int {
	for _, g := range gs {
		if g.turn == turn {
			return g.entry
		}
	}
	return 0
}
