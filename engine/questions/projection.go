package questions

import (
	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// Projection is the userQuestions projection of one Session (docs/PEER.md §5): a pure fold over
// the Session's existing events (PROJ-1) with no state of its own beyond the timed flag of
// the latest request/header. It is incremental: Apply folds one event, and a new view value
// is made only when the view changes. Published views are never mutated (copy on write), so
// a view handed to a client or a snapshot stays valid.
//
// A published Active slice has no spare capacity, but the projection may keep the array
// behind it with room to grow (buf): a new row is appended there, so a view that only
// gains a row shares its predecessor's rows instead of copying them all (asking N
// questions copies O(N) rows, not O(N²)). Rows of a published view are never rewritten:
// a change to an existing row, or a removal, copies once after a View handed the rows
// out; until the next View the projection owns that copy and changes it in place, so the
// N tool results one Apply appends (N questions going pending together) copy the rows
// once, not N times.
type Projection struct {
	inherited int
	timed     bool
	view      wire.QuestionsView
	buf       []wire.PendingRow   // view.Active's backing array with its spare room, or nil
	settled   []wire.SettledRow   // view.Settled's backing array with its spare room, or nil
	ids       map[string]struct{} // the call ids of view.Active (unique: putLast keeps them so)
	// shared is how many leading rows of buf a view handed out by View holds: those are
	// never rewritten; the rows past them are the projection's own until the next View
	shared  int
	memo    *Memo
	mutants mutant.Set
}

// emptyView is the view of a fresh projection. Its slices have no capacity, so every
// change allocates: the shared value is never written.
var emptyView = wire.QuestionsView{Active: []wire.PendingRow{}, Settled: []wire.SettledRow{}}

// NewProjection returns the projection of a Session whose first inherited events were
// copied from its fork parent: those are ignored (PROJ-11).
func NewProjection(inherited int) *Projection { return NewProjectionMemo(inherited, nil) }

// NewProjectionMemo is NewProjection reading through memo (nil: no memo).
func NewProjectionMemo(inherited int, memo *Memo) *Projection {
	if inherited < 0 {
		inherited = 0
	}
	return &Projection{inherited: inherited, view: emptyView, memo: memo, ids: map[string]struct{}{}}
}

// SetMutants switches on deliberate bugs (engine/mutant) before any event is applied; the
// zero set is the correct projection. The oracle's reference projection never has any.
func (p *Projection) SetMutants(s mutant.Set) { p.mutants = s }

// Fold replays events from scratch (PROJ-12): the view a fresh projection has after
// applying every event in order.
func Fold(events []session.Event, inherited int) wire.QuestionsView {
	p := NewProjection(inherited)
	for _, e := range events {
		p.Apply(e)
	}
	return p.view
}

// View is the current view.
func (p *Projection) View() wire.QuestionsView {
	if p.owns(p.view.Active) {
		p.shared = max(p.shared, len(p.view.Active))
	}
	return p.view
}

// private reports whether active rows i and after are the projection's own (buf behind
// them, no view handed out holds them): a change from row i on may rewrite them in place.
func (p *Projection) private(i int) bool { return i >= p.shared && p.owns(p.view.Active) }

// Timed reports whether the latest request/header declared the timed schema.
func (p *Projection) Timed() bool { return p.timed }

// Apply folds one event and reports whether the view changed.
func (p *Projection) Apply(e session.Event) bool {
	// MUTANT fork-inherits-questions: the inherited events are folded like the fork's own.
	if e.Seq < p.inherited && !p.mutants.Has(mutant.ForkInheritsQuestions) {
		return false // PROJ-11
	}
	switch d := e.Data.(type) {
	case session.RequestHeader:
		p.timed = p.memo.Timed(d.Tools) // PROJ-2: the latest header wins
		// MUTANT header-needs-objects: an entry that is not an object voids the header.
		if p.timed && p.mutants.Has(mutant.HeaderNeedsObjects) && !allObjects(d.Tools) {
			p.timed = false
		}
		return false
	case session.ToolCall:
		// MUTANT legacy-tracked: the call is tracked whatever the latest header says.
		if !p.timed && !p.mutants.Has(mutant.LegacyTracked) || d.Name != ToolName {
			return false // PROJ-2: legacy calls are never tracked
		}
		args, ok := p.memo.parse(d.Arguments)
		if !ok {
			return false // PROJ-3: unreadable arguments are ignored
		}
		qs, ok := p.memo.questions(d.Arguments, args, true)
		if !ok {
			return false
		}
		p.putLast(wire.PendingRow{CallID: d.CallID, Questions: qs, State: wire.StateOpen}) // PROJ-3
		return true
	case session.ToolResult:
		return p.toolResult(d)
	case session.PTCDispatch:
		if d.Name != ToolName || d.IsError || !isPendingText(d.Text) {
			return false
		}
		args, ok := jsonx.Parse(d.Arguments)
		if !ok {
			return false
		}
		qs, ok := readQuestions(args, true)
		if !ok {
			return false
		}
		p.putLast(wire.PendingRow{CallID: d.SubCallID, Questions: qs, State: wire.StateContinued}) // PROJ-7
		return true
	case session.UserMessage:
		if d.Message.Source.Kind != session.SourceUserQuestionReply {
			return false
		}
		i := p.find(d.Message.Source.CallID)
		if i < 0 {
			return false
		}
		answers, ok := []wire.AnswerItem(nil), false
		if !d.Message.NoText {
			answers, ok = p.memo.readBatch(d.Message.Text)
		}
		if !ok {
			// MUTANT unreadable-reply-dropped: the question goes with no settled record.
			if p.mutants.Has(mutant.UnreadableReplyDropped) {
				p.view = wire.QuestionsView{Active: p.without(i), Settled: p.view.Settled}
				return true
			}
			answers = []wire.AnswerItem{} // PROJ-8: unusable text settles with an empty batch
		}
		p.settle(i, answers)
		return true
	}
	if d, ok := e.Data.(session.InboxSpliced); ok && p.mutants.Has(mutant.SettleOnSplice) {
		return p.settleOnSplice(d) // MUTANT settle-on-splice
	}
	// agent/inbox/spliced (PROJ-9) and every other event leave the view as it is.
	return false
}

// settleOnSplice is MUTANT settle-on-splice: a queued reply settles its call at once.
func (p *Projection) settleOnSplice(d session.InboxSpliced) bool {
	changed := false
	for _, m := range d.Inserted {
		if m.Source.Kind != session.SourceUserQuestionReply {
			continue
		}
		if i := p.find(m.Source.CallID); i >= 0 {
			answers, ok := p.memo.readBatch(m.Text)
			if !ok {
				answers = []wire.AnswerItem{}
			}
			p.settle(i, answers)
			changed = true
		}
	}
	return changed
}

func (p *Projection) toolResult(d session.ToolResult) bool {
	i := p.find(d.CallID)
	if i < 0 {
		return false
	}
	// MUTANT unknown-outcome-drops-question: TOOL_OUTCOME_UNKNOWN removes the question.
	unknown := d.Err.Code == session.ToolOutcomeUnknown && !p.mutants.Has(mutant.UnknownOutcomeDropsQuestion)
	if (!d.NoText && isPendingText(d.Text)) || unknown {
		if p.view.Active[i].State == wire.StateContinued {
			return false
		}
		if p.private(i) {
			p.view.Active[i].State = wire.StateContinued // PROJ-4: no one holds these rows
			return true
		}
		active := p.copyActive(len(p.view.Active))
		copy(active, p.view.Active)           // the published rows stay as they were
		active[i].State = wire.StateContinued // PROJ-4, in place
		p.view = wire.QuestionsView{Active: active, Settled: p.view.Settled}
		return true
	}
	if !d.IsError && !d.Err.Set() && !d.NoText {
		if answers, ok := p.memo.readBatch(d.Text); ok {
			p.settle(i, answers) // PROJ-5
			return true
		}
	}
	p.view = wire.QuestionsView{Active: p.without(i), Settled: p.view.Settled} // PROJ-6
	return true
}

// find is the index of callID's active row, or -1. Call ids are unique among the active
// rows, so the search runs from the newest row (the one a tool result usually settles).
func (p *Projection) find(callID string) int {
	if _, ok := p.ids[callID]; !ok {
		return -1
	}
	for i := len(p.view.Active) - 1; i >= 0; i-- {
		if p.view.Active[i].CallID == callID {
			return i
		}
	}
	return -1
}

// putLast removes any row with the same call id and appends row.
func (p *Projection) putLast(row wire.PendingRow) {
	old := p.view.Active
	// MUTANT reused-call-keeps-place: an existing row is replaced where it is.
	if i := p.find(row.CallID); i >= 0 && p.mutants.Has(mutant.ReusedCallKeepsPlace) {
		active := p.copyActive(len(old))
		copy(active, old)
		active[i] = row
		p.view = wire.QuestionsView{Active: active, Settled: p.view.Settled}
		return
	}
	if i := p.find(row.CallID); i >= 0 {
		out := p.copyActive(len(old) - 1) // buf now holds len(old)-1 rows
		copy(out, old[:i])
		copy(out[i:], old[i+1:])
	} else if !p.owns(old) {
		copy(p.copyActive(len(old)), old) // buf now holds len(old) rows
	}
	// into the room behind the view: no published view reaches it
	p.buf = append(p.buf, row)
	n := len(p.buf)
	p.ids[row.CallID] = struct{}{}
	p.view = wire.QuestionsView{Active: p.buf[:n:n], Settled: p.view.Settled}
}

// owns reports whether buf is the array behind active (same rows, same storage).
func (p *Projection) owns(active []wire.PendingRow) bool {
	return p.buf != nil && len(p.buf) == len(active) && (len(active) == 0 || &p.buf[0] == &active[0])
}

// copyActive makes a new array of n rows (with room for more, kept in buf) for the next
// view's active rows and returns the slice of it a view publishes (no spare capacity).
func (p *Projection) copyActive(n int) []wire.PendingRow {
	p.buf = make([]wire.PendingRow, n, n+4) // append grows it further, amortised
	p.shared = 0
	return p.buf[:n:n]
}

// settle moves active row i to the end of settled with answers. The published slices have
// no spare capacity, so no holder of a view can append into storage another view shares,
// and the projection appends only past the end of every view it published.
func (p *Projection) settle(i int, answers []wire.AnswerItem) {
	callID := p.view.Active[i].CallID
	old := p.view.Settled
	if n := len(old); len(p.settled) != n || n > 0 && &p.settled[0] != &old[0] {
		p.settled = append(make([]wire.SettledRow, 0, n+n/4+4), old...)
	}
	// into the room behind the view, as putLast does for the active rows
	p.settled = append(p.settled, wire.SettledRow{CallID: callID, Answers: answers})
	n := len(p.settled)
	p.view = wire.QuestionsView{Active: p.without(i), Settled: p.settled[:n:n]}
}

// without returns a slice of the active rows with row i removed (its call id leaves
// ids): a new one, or the projection's unpublished one shortened in place. The caller
// makes it the view (unpublished).
func (p *Projection) without(i int) []wire.PendingRow {
	rows := p.view.Active
	delete(p.ids, rows[i].CallID)
	if p.private(i) {
		n := len(rows) - 1
		copy(p.buf[i:], p.buf[i+1:])
		p.buf[len(p.buf)-1] = wire.PendingRow{}
		p.buf = p.buf[:n]
		return p.buf[:n:n]
	}
	out := p.copyActive(len(rows) - 1)[:0]
	out = append(out, rows[:i]...)
	return append(out, rows[i+1:]...)
}

// allObjects reports whether tools is an array whose entries are all objects (MUTANT
// header-needs-objects).
func allObjects(tools string) bool {
	v, ok := jsonx.Parse(tools)
	if !ok || v.Kind() != jsonx.Array {
		return false
	}
	for _, e := range v.Items() {
		if e.Kind() != jsonx.Object {
			return false
		}
	}
	return true
}
