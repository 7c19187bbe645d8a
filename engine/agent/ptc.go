package agent

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/signal"
	"github.com/twosettle/twosettle/engine/wire"
)

// ptcRun is one run_code execution: its program is the list of sub-calls, awaited one
// after the other (docs/PEER-RUNTIME.md §6).
type ptcRun struct {
	call      *Call
	subs      []ptcSub
	n         int   // sub-calls started
	current   *Call // the sub-call in flight
	settled   []*Call
	sig       *signal.Signal // the run-scoped signal: follows the run_code call's
	detach    func()
	advancing bool
	finished  bool
}

type ptcSub struct{ name, args string }

// startPTC parses run_code's args and starts its first sub-call.
func startPTC(c *Call) {
	subs, msg := parsePTC(c.args)
	if msg != "" {
		c.settle(Failed(TypeErrorName, "", "run_code: "+msg))
		return
	}
	sig, detach := signal.Follow(c.sig)
	c.ptc = &ptcRun{call: c, subs: subs, sig: sig, detach: detach}
	c.ptc.advance()
}

func parsePTC(args string) ([]ptcSub, string) {
	var a struct {
		Calls *[]struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"calls"`
	}
	if err := json.Unmarshal([]byte(args), &a); err != nil || a.Calls == nil {
		return nil, `arguments must be {"calls":[{"name":…,"arguments":{…}},…]}`
	}
	subs := make([]ptcSub, 0, len(*a.Calls))
	for i, sc := range *a.Calls {
		if sc.Name == "" {
			return nil, "call " + strconv.Itoa(i+1) + " has no name"
		}
		raw := []byte("{}")
		if len(sc.Arguments) > 0 && string(sc.Arguments) != "null" {
			if sc.Arguments[0] != '{' {
				return nil, "the arguments of call " + strconv.Itoa(i+1) + " are not an object"
			}
			var b bytes.Buffer
			if err := json.Compact(&b, sc.Arguments); err != nil {
				return nil, "the arguments of call " + strconv.Itoa(i+1) + " are not JSON"
			}
			raw = b.Bytes()
		}
		subs = append(subs, ptcSub{name: sc.Name, args: string(raw)})
	}
	return subs, ""
}

// advance moves the program on: it records a settled sub-call as tool/ptc-dispatch (no
// flush of its own: it rides the write window, AGENT-4), starts the next one with
// tool/ptc-dispatch-start, and when the program is done (or its signal aborted: queued
// sub-calls are abandoned and log nothing) commits run_code's own result.
func (p *ptcRun) advance() {
	if p.advancing {
		return
	}
	p.advancing = true
	s := p.call.s
	for !p.finished {
		if cur := p.current; cur != nil {
			if !cur.done {
				break
			}
			p.current = nil
			p.settled = append(p.settled, cur)
			r := cur.result
			s.append(session.PTCDispatch{Root: p.call.id, Parent: p.call.id, SubCallID: cur.id, Name: cur.name,
				Arguments: cur.args, IsError: r.IsError, Err: r.Err, Text: r.Text})
			continue
		}
		if p.sig.IsAborted() || p.n == len(p.subs) {
			p.finished = true
			p.detach()
			p.advancing = false
			p.call.settle(p.summary())
			return
		}
		sub := p.subs[p.n]
		p.n++
		sc := s.newCall(p.call.id+":ptc:"+strconv.Itoa(p.n), sub.name, sub.args, p.call, p.sig)
		p.current = sc
		s.append(session.PTCDispatchStart{Root: p.call.id, Parent: p.call.id, SubCallID: sc.id, Name: sc.name, Arguments: sc.args})
		s.dispatch(sc)
	}
	p.advancing = false
}

// summary is run_code's result: compact JSON
// {"results":[{"subCallId","name","isError","error"?:{"name","code"},"text"?}…],"abandoned"?:N}
// with one entry per settled sub-call in order ("text" left out for a result with no text
// block, "abandoned" only when the run stopped early). The run fails (AbortError) when its
// signal aborted before the program finished.
func (p *ptcRun) summary() Result {
	b := make([]byte, 0, 64+96*len(p.settled))
	b = append(b, `{"results":[`...)
	for i, c := range p.settled {
		if i > 0 {
			b = append(b, ',')
		}
		r := c.result
		b = append(b, `{"subCallId":`...)
		b = wire.AppendJSONString(b, c.id)
		b = append(b, `,"name":`...)
		b = wire.AppendJSONString(b, c.name)
		b = append(b, `,"isError":`...)
		b = strconv.AppendBool(b, r.IsError)
		if r.Err.Set() {
			b = append(b, `,"error":{"name":`...)
			b = wire.AppendJSONString(b, r.Err.Name)
			b = append(b, `,"code":`...)
			b = wire.AppendJSONString(b, r.Err.Code)
			b = append(b, '}')
		}
		if !r.NoText {
			b = append(b, `,"text":`...)
			b = wire.AppendJSONString(b, r.Text)
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if left := len(p.subs) - len(p.settled); left > 0 {
		b = append(b, `,"abandoned":`...)
		b = strconv.AppendInt(b, int64(left), 10)
	}
	b = append(b, '}')
	if p.sig.IsAborted() {
		return Result{IsError: true, Err: session.ErrorInfo{Name: AbortErrorName}, Text: string(b)}
	}
	return OK(string(b))
}
