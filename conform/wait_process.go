package conform

import (
	"errors"
	"fmt"
)

// WaitStep sends one step of a wait script (the wait profile) and returns the host's
// waited reply. Any protocol failure, a malformed event included, loses the process.
func (p *Process) WaitStep(s WaitStep) (WaitReply, error) {
	n := p.next()
	m, err := p.request(waitRequestLine(n, s), n, "wait "+s.Op, TypeWaited)
	if err != nil {
		return WaitReply{}, err
	}
	if m.Events == nil || m.Timers == nil {
		return WaitReply{}, p.fail(errors.New(`the host's waited reply lacks "events" or "timers"`))
	}
	if *m.Timers < 0 {
		return WaitReply{}, p.fail(fmt.Errorf(`the host's waited reply has "timers":%d`, *m.Timers))
	}
	evs, err := decodeWaitEvents(m.Events)
	if err != nil {
		return WaitReply{}, p.fail(fmt.Errorf("the host's waited reply: %v", err))
	}
	return WaitReply{Events: evs, Timers: *m.Timers}, nil
}
