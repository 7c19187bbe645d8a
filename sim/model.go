package sim

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// mslot is what the model actor knows of one Session's open step, from the host's
// Appended effects and the scripted model commands.
type mslot struct {
	session    string
	open       bool
	turn, step int
	tools      int  // tool calls of the step still without a result
	ended      bool // the model already ended this step (scripted or automatic EndStep)
	last       int64
	version    int32 // bumped whenever the automatic end must be re-planned
}

func (r *Runner) slot(s string) int {
	for i := range r.model {
		if r.model[i].session == s {
			return i
		}
	}
	r.model = append(r.model, mslot{session: s})
	return len(r.model) - 1
}

// modelObserve follows the step machine through the host's Appended effects.
func (r *Runner) modelObserve(a wire.Appended) {
	if r.cfg.Model.AutoEndMs < 0 {
		return
	}
	switch d := a.Event.Data.(type) {
	case session.StepStart:
		i := r.slot(a.Session)
		m := &r.model[i]
		m.open, m.turn, m.step, m.tools, m.ended, m.last = true, d.Turn, d.Step, 0, false, r.now
		r.planAutoEnd(i)
	case session.ToolCall:
		if m := &r.model[r.slot(a.Session)]; m.open && m.turn == d.Turn && m.step == d.Step {
			m.tools++
			m.last = r.now
			m.version++
		}
	case session.ToolResult:
		i := r.slot(a.Session)
		if m := &r.model[i]; m.open && m.turn == d.Turn && m.step == d.Step {
			if m.tools > 0 {
				m.tools--
			}
			m.last = r.now
			r.planAutoEnd(i)
		}
	case session.StepEnd, session.TurnEnd:
		m := &r.model[r.slot(a.Session)]
		m.open = false
		m.version++
	}
}

// modelCommand notes a scripted model command delivered to Session s.
func (r *Runner) modelCommand(cmd wire.Command) {
	if r.cfg.Model.AutoEndMs < 0 {
		return
	}
	s, end := modelTarget(cmd)
	if s == "" {
		return
	}
	i := r.slot(s)
	m := &r.model[i]
	m.last = r.now
	if end {
		m.ended = true
	}
	r.planAutoEnd(i)
}

// modelTarget is the Session a model command acts in (Header, ToolCall, EndStep).
func modelTarget(cmd wire.Command) (string, bool) {
	switch c := cmd.(type) {
	case wire.Header:
		return c.Session, false
	case wire.ToolCall:
		return c.Session, false
	case wire.EndStep:
		return c.Session, true
	}
	return "", false
}

func (r *Runner) planAutoEnd(i int) {
	m := &r.model[i]
	m.version++
	if !m.open || m.ended || m.tools > 0 {
		return
	}
	r.push(event{kind: evAutoEnd, client: -1, link: -1, idx: int32(i), epoch: m.version}, m.last+r.cfg.Model.AutoEndMs.Ms())
}

// autoEndLive reports whether an automatic end is still due: its plan is current and no
// scripted model command for the Session is due at this instant (the script acts first).
func (r *Runner) autoEndLive(e *event) bool {
	m := &r.model[e.idx]
	if m.version != e.epoch || !m.open || m.ended || m.tools > 0 {
		return false
	}
	steps := r.cfg.Steps
	for j := r.stepNext; j < len(steps) && steps[j].At.Ms() <= r.now; j++ {
		if steps[j].Host != nil {
			if s, _ := modelTarget(steps[j].Host); s == m.session {
				return false
			}
		}
	}
	return true
}

type autoEndNote struct {
	session    string
	turn, step int
}

func (n autoEndNote) String() string {
	return "auto-end " + n.session + " turn=" + strconv.Itoa(n.turn) + " step=" + strconv.Itoa(n.step)
}

func (r *Runner) fireAutoEnd(e *event) {
	m := &r.model[e.idx]
	m.ended = true
	m.version++
	r.rec(trace.ActorModel, trace.Note, 0, autoEndNote{m.session, m.turn, m.step})
	r.applyHost(wire.EndStep{Session: m.session, Final: true}, true)
}

// modelReset forgets every open step (the host restarted: its agents are gone).
func (r *Runner) modelReset() {
	for i := range r.model {
		m := &r.model[i]
		m.open = false
		m.version++
	}
}

// step runs scripted step i.
func (r *Runner) step(i int) {
	r.stepNext = i + 1
	r.applyStep(&r.cfg.Steps[i])
}

// applyStep applies one step now: a scripted one (step) or one a Chooser injects.
func (r *Runner) applyStep(st *Step) {
	switch {
	case st.Host != nil:
		switch c := st.Host.(type) {
		case wire.Restart:
			r.restart(-1)
			return
		case wire.OpenSession:
			r.noteSession(c.Session)
		case wire.Send:
			r.noteSession(c.Session)
		}
		r.modelCommand(st.Host) // before the Apply: an EndStep ends this step, not the one it opens
		r.applyHost(st.Host, true)
	case st.User != nil:
		r.applyClient(r.clientIndex(st.Client), wire.User{Action: *st.User}, false)
	case st.Input != nil:
		r.applyClient(r.clientIndex(st.Client), st.Input, false)
	case st.Net != nil:
		r.netAction(st.Net, false)
	case st.Fault != nil:
		r.injectFault(st.Fault, false)
	case st.Probe != "":
		snap := trace.Snapshot{Label: st.Probe, Host: copyHostState(r.host.State())}
		snap.Clients = make([]wire.ClientState, len(r.cl))
		for j := range r.cl {
			snap.Clients[j] = copyClientState(r.clientState(j, r.now))
		}
		r.rec(trace.ActorSim, trace.Probe, 0, snap)
	}
}
