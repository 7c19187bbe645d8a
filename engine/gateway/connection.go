package gateway

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/wire"
)

// conn is one connection generation of a client: its event deliveries and open streams.
type conn struct {
	name       string
	gen        int
	deliveries []*pending // events delivered to this generation and not yet withdrawn
	streams    []*Stream  // open streams, in open order
	// byID is streams by id (ids are unique among open streams): opening and cancelling a
	// stream look it up instead of scanning every open stream
	byID map[string]*Stream
}

// detachStreams marks every open stream closed, forgets them and appends them to dst (so
// their signals can be aborted once nothing can emit on them any more).
func (c *conn) detachStreams(dst []*Stream) []*Stream {
	for _, s := range c.streams {
		s.closed = true
		dst = append(dst, s)
	}
	clear(c.streams)
	c.streams = c.streams[:0]
	clear(c.byID)
	return dst
}

func (c *conn) forget(p *pending) { c.deliveries = remove(c.deliveries, p) }

// Connect opens a new connection generation for client and returns it (1, 2, … per
// client name). An older generation of the same name is disconnected first. The new
// generation gets wire.Ready, then every pending waterfall in table insertion order under
// its original event id (GW-5); it is delivered every later event too.
func (g *Gateway) Connect(client string) (gen int, err error) {
	if client == "" {
		return 0, fmt.Errorf("gateway: connect: empty client name")
	}
	if old := g.conn(client); old != nil {
		g.drop(old)
	}
	gen = g.lastGen[client] + 1
	g.lastGen[client] = gen
	c := &conn{name: client, gen: gen}
	g.conns = append(g.conns, c)
	g.send(c, wire.Ready{Gen: gen})
	for _, p := range g.pending {
		if g.mutants.Has(mutant.ReplayNewEventID) {
			// MUTANT replay-new-event-id: the replay is sent under a freshly minted id.
			g.lastEvent++
			f := p.frame
			f.EventID = "e" + strconv.Itoa(g.lastEvent)
			p.deliveries = append(p.deliveries, c)
			c.deliveries = append(c.deliveries, p)
			g.send(c, f)
			continue
		}
		p.deliver(c)
	}
	return gen, nil
}

// Disconnect drops client's connection. Its deliveries are withdrawn without settling
// anything: an event left with no delivery stays pending (GW-6). Every stream it had open
// ends: the stream is closed, then its signal aborts with ErrConnectionLost so the handler
// releases what it holds; no frame is sent (GW-7). Disconnecting a client that is not
// connected is an error and changes nothing.
func (g *Gateway) Disconnect(client string) error {
	c := g.conn(client)
	if c == nil {
		return fmt.Errorf("gateway: disconnect %s: %w", client, ErrNotConnected)
	}
	g.drop(c)
	return nil
}

func (g *Gateway) drop(c *conn) {
	g.conns = remove(g.conns, c)
	var passed []*pending // MUTANT disconnect-is-next
	for _, p := range c.deliveries {
		p.deliveries = remove(p.deliveries, c)
		if g.mutants.Has(mutant.DisconnectIsNext) && len(p.deliveries) == 0 {
			passed = append(passed, p)
		}
	}
	clear(c.deliveries)
	c.deliveries = c.deliveries[:0]
	for _, s := range c.detachStreams(nil) {
		s.sig.Abort(ErrConnectionLost)
	}
	for _, p := range passed {
		// MUTANT disconnect-is-next: the last delivery lost to a disconnect settles next.
		g.finish(p, nil, Settlement{Kind: wire.OutcomeNext, Client: c.name})
	}
}

// remove deletes the first occurrence of x from s, keeping order.
func remove[T comparable](s []T, x T) []T {
	if i := slices.Index(s, x); i >= 0 {
		return slices.Delete(s, i, i+1)
	}
	return s
}
