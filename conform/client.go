package conform

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// A client process speaks the same protocol as a host process (docs/PROTOCOL.md,
// "Clients"): the same hello, bye, replies and robustness rules, with the client
// vocabulary in the requests:
//
//	→ {"type":"start","n":N,"client":<client config>}            ← started | refused | error
//	→ {"type":"apply","n":N,"now":T,"input":<client input>}      ← {"type":"applied","n":N,"effects":[<client effect>…],"error"?:S,"deadline"?:T}
//	→ {"type":"state","n":N,"at":T}                               ← {"type":"state","n":N,"state":<client state>}
//
// now and at are the client's own clock (the simulator may offset, drift or jump it).

func clientStartLine(n int64, cfg wire.ClientConfig) []byte {
	b := []byte(`{"type":"start","n":`)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"client":`...)
	b = wire.AppendClientConfigJSON(b, cfg)
	return append(b, "}\n"...)
}

func clientApplyLine(b []byte, n, now int64, in wire.ClientInput) ([]byte, error) {
	b = append(b, `{"type":"apply","n":`...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"now":`...)
	b = strconv.AppendInt(b, now, 10)
	b = append(b, `,"input":`...)
	b, err := wire.AppendClientInputJSON(b, in)
	if err != nil {
		return nil, err
	}
	return append(b, "}\n"...), nil
}

func clientStateLine(n, at int64) []byte {
	b := []byte(`{"type":"state","n":`)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, at, 10)
	return append(b, "}\n"...)
}

// ClientFactory builds one run's client on a pool process: it has the
// harness.ClientFactory signature. A client that refuses its configuration, cannot be
// started or breaks the protocol returns a *wire.PortLost (a client has no configuration
// a scenario may expect it to refuse).
func (pl *Pool) ClientFactory(cfg wire.ClientConfig) (wire.ClientPort, error) {
	p, err := pl.get()
	if err != nil {
		return nil, &wire.PortLost{Err: err}
	}
	n := p.next()
	m, err := p.request(clientStartLine(n, cfg), n, "start client "+cfg.Name, TypeStarted, TypeRefused)
	if err != nil {
		// the lost process goes with the error, for its stderr (Pool.Factory)
		return &ProcessClient{p: p, pool: pl}, err
	}
	if m.Type == TypeRefused {
		pl.put(p)
		return nil, &wire.PortLost{Err: fmt.Errorf("the client refused its configuration %s: %s", cfg, str(m.Error))}
	}
	return &ProcessClient{p: p, pool: pl}, nil
}

// ProcessClient is one run's wire.ClientPort over a client process: Apply sends an apply
// message and decodes the applied reply; NextDeadline is the deadline of the last reply;
// StateAt asks for a snapshot at a client time. It is Losable (wire.Losable) and an
// io.Closer (Close gives the process back to its pool).
type ProcessClient struct {
	p        *Process
	pool     *Pool
	now      int64
	deadline int64
	armed    bool
	effs     []wire.ClientEffect
	closed   bool
}

// Process is the process the run is on.
func (c *ProcessClient) Process() *Process { return c.p }

// Apply implements wire.ClientPort.
func (c *ProcessClient) Apply(at wire.Time, in wire.ClientInput) ([]wire.ClientEffect, error) {
	now := int64(at)
	n := c.p.next()
	line, err := clientApplyLine(c.p.buf[:0], n, now, in)
	if err != nil {
		return nil, c.p.fail(fmt.Errorf("the runner cannot encode %s: %v", in, err))
	}
	c.p.buf = line
	m, err := c.p.request(line, n, "apply "+in.String(), TypeApplied)
	if err != nil {
		return nil, err
	}
	if m.Effects == nil {
		return nil, c.p.fail(fmt.Errorf(`the applied reply to %q (n=%d) has no "effects" array`, in.String(), n))
	}
	c.now = now
	c.effs = c.effs[:0]
	for i, raw := range m.Effects {
		e, err := wire.DecodeClientEffect(raw)
		if err != nil {
			return nil, c.p.fail(fmt.Errorf("the applied reply to %q (n=%d): effects[%d]: %v", in.String(), n, i, err))
		}
		c.effs = append(c.effs, e)
	}
	c.armed = m.Deadline != nil
	if c.armed {
		c.deadline = *m.Deadline
		if c.deadline < now {
			return nil, c.p.fail(fmt.Errorf("the applied reply to %q (n=%d) says the next deadline is %d, before now (%d): ticks due before now fire inside apply", in.String(), n, c.deadline, now))
		}
	}
	if m.Error != nil {
		if *m.Error == "" {
			return nil, c.p.fail(fmt.Errorf(`the applied reply to %q (n=%d) refuses the input with an empty "error"`, in.String(), n))
		}
		return c.effs, errors.New(*m.Error)
	}
	return c.effs, nil
}

// NextDeadline implements wire.ClientPort: the deadline the last reply declared.
func (c *ProcessClient) NextDeadline() (wire.Time, bool) { return wire.Time(c.deadline), c.armed }

// State implements wire.ClientPort: the state at the client time of the last input.
func (c *ProcessClient) State() wire.ClientState { return c.StateAt(wire.Time(c.now)) }

// StateAt implements wire.ClientPort. A client that fails to answer is lost (Lost says
// why) and the state is empty.
func (c *ProcessClient) StateAt(at wire.Time) wire.ClientState {
	n := c.p.next()
	m, err := c.p.request(clientStateLine(n, int64(at)), n, "state", TypeState)
	if err != nil {
		return wire.ClientState{}
	}
	if m.State == nil {
		c.p.fail(fmt.Errorf(`the state reply (n=%d) has no "state"`, n))
		return wire.ClientState{}
	}
	s, err := wire.DecodeClientState(m.State)
	if err != nil {
		c.p.fail(fmt.Errorf("the state reply (n=%d): %v", n, err))
		return wire.ClientState{}
	}
	return s
}

// Lost implements wire.Losable.
func (c *ProcessClient) Lost() *wire.PortLost { return c.p.Lost() }

// Close gives the process back to the pool (or ends it, if lost).
func (c *ProcessClient) Close() error {
	if !c.closed {
		c.closed = true
		c.pool.put(c.p)
	}
	return nil
}
