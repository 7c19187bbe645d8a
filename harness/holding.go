package harness

import (
	"errors"

	"github.com/twosettle/twosettle/engine/wire"
)

// holdingClient is a scenario client declared hold: true: an answerer that takes every
// delivery and holds it, never claiming, answering or passing (no result, no claim
// stream, no RPC), and that has no user. It is a wire.ClientPort like the reference
// client, so the host cannot tell it apart until it fails to answer; inject steps answer
// for it, below any UI. Its state is its link only.
type holdingClient struct {
	name      string
	gen       int
	connected bool
}

var errNoUser = errors.New("this client holds every delivery and has no user (hold: true); answer for it with inject steps")

func (c *holdingClient) Apply(now wire.Time, in wire.ClientInput) ([]wire.ClientEffect, error) {
	switch x := in.(type) {
	case wire.FromHost:
		if r, ok := x.Frame.(wire.Ready); ok {
			c.gen, c.connected = r.Gen, true
		}
	case wire.LinkDown:
		c.connected = false
	case wire.User:
		return nil, errNoUser
	}
	return nil, nil
}

func (c *holdingClient) NextDeadline() (wire.Time, bool) { return 0, false }

func (c *holdingClient) State() wire.ClientState {
	return wire.ClientState{Client: c.name, Gen: c.gen, Connected: c.connected}
}

func (c *holdingClient) StateAt(wire.Time) wire.ClientState { return c.State() }
