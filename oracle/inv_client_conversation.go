package oracle

import "github.com/twosettle/twosettle/engine/wire"

// INV-CLIENT-CONVERSATION (NODE-4): where a page's chat lays out each late reply, at every
// probe and at the end (docs/PEER.md §7). A reply is process content like a tool call:
//   - it sits in a process group: the nearest group disclosure above it, with only process
//     entries (tool calls, replies) between them, of the reply's own turn;
//   - it declares no position of its own: its depth is its group's plus one;
//   - in a turn, the turn's disclosure comes before the group it controls and the group
//     sits directly under it, also when the reply opens the turn (it is never placed
//     like the turn's trigger);
//   - whole-turn folding and group folding apply: it is visible exactly when neither its
//     turn's disclosure nor its group's is folded.

func (c *Checker) clientConversation(i int, cm *clientModel, cs *wire.ClientState) {
	if !c.on(invClientConversation) {
		return
	}
	conv := cs.Conversation
	for start := 0; start < len(conv); {
		end := start
		for end < len(conv) && conv[end].Session == conv[start].Session {
			end++
		}
		if msg := replyPlacement(conv[start:end]); msg != "" {
			c.fail(invClientConversation, i, cm.name+": "+msg, cm.cur)
			return
		}
		start = end
	}
}

// replyPlacement checks one Session's conversation and says what is wrong ("" nothing).
func replyPlacement(es []wire.ConvEntry) string {
	turnAt := map[int]int{} // turn -> index of its disclosure
	group := -1             // the open process group's index
	for j, e := range es {
		switch e.Kind {
		case wire.ConvTurn:
			turnAt[e.Turn] = j
			group = -1
		case wire.ConvMessage:
			group = -1
		case wire.ConvGroup:
			group = j
		case wire.ConvReply:
			if group < 0 {
				return "the reply " + e.String() + " is in no process group"
			}
			g := es[group]
			if g.Turn != e.Turn {
				return "the reply " + e.String() + " sits in the group " + g.String() + " of another turn"
			}
			if e.Depth != g.Depth+1 {
				return "the reply " + e.String() + " declares its own depth under the group " + g.String()
			}
			hidden := g.Folded
			if e.Turn != 0 {
				t, ok := turnAt[e.Turn]
				if !ok {
					return "the reply " + e.String() + " comes before its turn's disclosure"
				}
				if g.Depth != es[t].Depth+1 {
					return "the group " + g.String() + " of the reply " + e.String() + " is not under its turn's disclosure " + es[t].String()
				}
				hidden = hidden || es[t].Folded
			}
			if e.Visible == hidden {
				return "the reply " + e.String() + " ignores the folding of its turn or group"
			}
		}
	}
	return ""
}
