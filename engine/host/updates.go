package host

import (
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// clientView is what the host has told one connected client generation: per Session, how
// many events it has sent.
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
	conns := h.gw.Clients()
	if len(conns) == 0 && len(h.clients) == 0 {
		return
	}
	views := make([]*clientView, 0, len(conns))
	for _, cs := range conns {
		var v *clientView
		for _, o := range h.clients {
			if o.name == cs.Client && o.gen == cs.Gen {
				v = o
				break
			}
		}
		fresh := v == nil
		if fresh {
			v = &clientView{name: cs.Client, gen: cs.Gen, sent: map[string]int{}}
		}
		for _, id := range h.rt.Sessions() {
			log := h.rt.Log(id)
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
			u.Events = append([]session.Event(nil), log.Since(u.From)...)
			if p := h.proj[id]; p != nil {
				u.Questions = p.View()
			}
			if in, err := h.rt.Inbox(id); err == nil {
				u.Inbox = in
			}
			v.sent[id] = log.Len()
			h.emit(wire.SendFrame{Client: v.name, Gen: v.gen, Frame: u})
		}
		views = append(views, v)
	}
	h.clients = views
}
