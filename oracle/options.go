package oracle

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// Options tunes a check. The zero value is the strongest check the oracle knows.
type Options struct {
	// DefaultTimeoutMs is the configured default timeout of the timed tool in ms (the
	// scenario's default timeout), used when a call leaves timeout out: 0 means unknown
	// (deadlines then come from WaitNote effects or claim frames), < 0 means the default
	// is -1 (blocking).
	DefaultTimeoutMs int64
	// HealedAt is the virtual time after which no fault is injected (the start of the
	// healed phase). 0 derives it from the trace: the time of its last fault or restart.
	HealedAt int64
	// BoundMs is the liveness bound: an obligation due at time T (an accepted reply to
	// become durable, an expired wait to be reported) is checked when the trace ran until
	// max(T, HealedAt) + BoundMs. 0 means the default, 1000 ms.
	BoundMs int64
	// LazyTimers says the runner does not apply every deadline a host declares at its time
	// (a host then fires due timers only at its next command). By default the oracle
	// assumes an exact runner (the simulator is one), so a wait still open at a command
	// after its expiry instant is a violation (INV-WAIT-EXPIRES-ON-TIME).
	LazyTimers bool
	// MaxRecords is a budget: a trace with more records is checked up to it and the
	// verdict is unknown (unless a violation was found). 0: no limit.
	MaxRecords int
	// MaxFoldEvents is a budget on the reference projection work (events folded for trace
	// validation). 0: no limit.
	MaxFoldEvents int
	// Only restricts the check to these invariants (names); nil checks all. Skip removes
	// invariants. Unknown names are ignored.
	Only []string
	Skip []string
	// Fold is the reference projection used for trace validation and the late-answer
	// rules; nil means the oracle's own projection (Fold). NoFold turns those invariants off.
	Fold   func(events []session.Event, inherited int) wire.QuestionsView
	NoFold bool
}

const defaultBoundMs = 1000

// folder is the incremental reference projection of one Session.
type folder interface {
	apply(e session.Event)
	view() wire.QuestionsView
}

// funcFolder adapts Options.Fold (a whole-log fold) to the incremental interface.
type funcFolder struct {
	fold      func([]session.Event, int) wire.QuestionsView
	inherited int
	events    []session.Event
	cached    wire.QuestionsView
	valid     bool
}

func (f *funcFolder) apply(e session.Event) { f.events = append(f.events, e); f.valid = false }
func (f *funcFolder) view() wire.QuestionsView {
	if !f.valid {
		f.cached, f.valid = f.fold(f.events, f.inherited), true
	}
	return f.cached
}

func (o *Options) newFolder(inherited int) folder {
	if o.NoFold {
		return nil
	}
	if o.Fold != nil {
		return &funcFolder{fold: o.Fold, inherited: inherited}
	}
	return newProjection(inherited)
}
