package host

import (
	"slices"

	"github.com/twosettle/twosettle/engine/wire"
)

// clientView is what the host has told one connected client generation: per Session, how
// many events it has sent (nil until its first update). The host keeps one per connected
// generation, by name, in step with the gateway's connections (Connect, Disconnect, a
// restart's reset).
type clientView struct {
	name string
	gen  int
	sent map[string]int
}

// sendUpdates sends, after each command, one SessionUpdate per connected client per
// Session whose log changed since the client's last update (the projection and the inbox
// only change with the log). A client generation the host has not seen yet (a connect, a
// reconnect, the first connect after a restart) gets a Reset update with the whole log of
// every Session; a Session created since gets one from seq 0. Clients by name, Sessions by
// id.
func (h *Host) sendUpdates() {
	for _, v := range h.clients {
		fresh := v.sent == nil
		if fresh {
			v.sent = map[string]int{}
		}
		for i, id := range h.ids {
			log := h.logs[i]
			sent, known := v.sent[id]
			u := wire.SessionUpdate{Session: id}
			switch {
			case fresh || sent > log.Len():
				u.Reset = true
			case !known:
			case sent == log.Len():
				continue
			default:
				u.From = sent
			}
			u.Events = log.Since(u.From) // shared: a log's events never change (session.Log.Events)
			if p := h.proj[id]; p != nil {
				u.Questions = p.View()
			}
			if in, err := h.rt.Inbox(id); err == nil {
				u.Inbox = in
			}
			v.sent[id] = log.Len()
			h.emit(wire.SendFrame{Client: v.name, Gen: v.gen, Frame: u})
		}
	}
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
