package client

import (
	"fmt"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// planBinding plans unbind and bind (docs/PEER.md §6.5: reconciliation runs for each bound
// Session; Sessions that lose their binding stop being followed). Unbinding keeps what
// the Session shows (log, views, cards, rows) but its projection no longer creates or
// sweeps cards; binding it again reconciles the latest views at once. A reload binds
// every Session again (the page starts over). Session may be left out when the client
// knows one Session.
func (c *Client) planBinding(a wire.UserAction) (func(), error) {
	id := a.Session
	if id == "" {
		if len(c.page.order) != 1 {
			return nil, fmt.Errorf("%s: name the session (sessions: %s)", a.Kind, listOr(c.page.order))
		}
		id = c.page.order[0]
	}
	s := c.page.sessions.at(id)
	if s == nil {
		return nil, fmt.Errorf("%s: the client has no session %s (sessions: %s)", a.Kind, id, strings.Join(c.page.order, ", "))
	}
	if a.Kind == wire.ActUnbind {
		if s.unbound {
			return nil, fmt.Errorf("unbind: session %s is not bound", id)
		}
		return func() { s.unbound = true }, nil
	}
	if !s.unbound {
		return nil, fmt.Errorf("bind: session %s is already bound", id)
	}
	return func() {
		s.unbound = false
		c.reconcile(s)
	}, nil
}
