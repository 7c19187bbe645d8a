package host

import (
	"slices"

	"github.com/twosettle/twosettle/engine/wire"
)

// clientView is what the host has told one connected client generation: per Session, how
// many events it has sent (none until its first update). The host keeps one per connected
// generation, by name, in step with the gateway's connections (Connect, Disconnect, a
// restart's reset).
type clientView struct {
	name    string
	gen     int
	sent    []sentCount // per Session it has seen, in first-update order
	started bool        // it has had its first (Reset) update
}

// sentCount is how many events of Session id a client generation has been sent.
type sentCount struct {
	id string
	n  int
}

// sentTo is v's count for id and whether it has one.
func (v *clientView) sentTo(id string) (int, bool) {
	for _, s := range v.sent {
		if s.id == id {
			return s.n, true
		}
	}
	return 0, false
}

func (v *clientView) setSent(id string, n int) {
	for i := range v.sent {
		if v.sent[i].id == id {
			v.sent[i].n = n
			return
		}
	}
	v.sent = append(v.sent, sentCount{id, n})
}

// sendUpdates sends, after each command, one SessionUpdate per connected client per
// Session whose log changed since the client's last update (the projection and the inbox
// only change with the log). A client generation the host has not seen yet (a connect, a
// reconnect, the first connect after a restart) gets a Reset update with the whole log of
// every Session; a Session created since gets one from seq 0. Clients by name, Sessions by
// id.
func (h *Host) sendUpdates() {
	// Clients that are in step get equal updates: the frame is built and boxed once per
	// Session and shared (a frame is an immutable value).
	if len(h.clients) == 0 {
		return
	}
	if cap(h.upd) < len(h.ids) {
		h.upd = make([]builtUpdate, len(h.ids))
	}
	built := h.upd[:len(h.ids)]
	clear(built)
	for _, v := range h.clients {
		fresh := !v.started
		v.started = true
		for i, id := range h.ids {
			log := h.logs[i]
			sent, known := v.sentTo(id)
			reset, from := false, 0
			switch {
			case fresh || sent > log.Len():
				reset = true
			case !known:
			case sent == log.Len():
				continue
			default:
				from = sent
			}
			v.setSent(id, log.Len())
			if b := &built[i]; b.frame != nil && b.reset == reset && b.from == from {
				h.emit(wire.SendFrame{Client: v.name, Gen: v.gen, Frame: b.frame})
				continue
			}
			u := wire.SessionUpdate{Session: id, Reset: reset, From: from}
			u.Events = log.Since(u.From) // shared: a log's events never change (session.Log.Events)
			if p := h.projOf(id); p != nil {
				u.Questions = p.View()
			}
			if in, err := h.rt.Inbox(id); err == nil {
				u.Inbox = in
			}
			var f wire.Frame = u
			built[i] = builtUpdate{frame: f, reset: u.Reset, from: u.From}
			h.emit(wire.SendFrame{Client: v.name, Gen: v.gen, Frame: f})
		}
	}
}

// builtUpdate is the update of one Session built in the current sendUpdates.
type builtUpdate struct {
	frame wire.Frame
	reset bool
	from  int
}

// connected records a new connection generation (replacing an older one of the name).
func (h *Host) connected(name string, gen int) {
	h.disconnected(name)
	i := 0
	for i < len(h.clients) && h.clients[i].name < name {
		i++
	}
	h.clients = slices.Insert(h.clients, i, &clientView{name: name, gen: gen})
}

func (h *Host) disconnected(name string) {
	h.clients = slices.DeleteFunc(h.clients, func(v *clientView) bool { return v.name == name })
}
