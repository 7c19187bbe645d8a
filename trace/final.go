package trace

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// Lines is the canonical text of the final state, one line each:
//
//	final t=12345
//	session s1 parent= inherited=0 persisted=12 live=true root=true phase=idle
//	  #0 t=0 turn/start turn=1          (every log event)
//	  questions active=[…] settled=[…]
//	  inbox next-step=[] next-turn=[]
//	wait s1/c1 deadline=5000 claims=0 timer=5000
//	reservation s1/c1 msg=m1 claimed-turn=-1
//	conn c1.2 streams=1
//	pending e1 agent=s1 deliveries=c1,c2
//	client c1 gen=2 connected=true
//	  card …                            (cards, drafts, rows, nodes, conversation)
//	  draft KEY JSON
//	  row …
//	  node …
//	  conv …
func (f Final) Lines() []string {
	out := []string{"final t=" + strconv.FormatInt(f.Time, 10)}
	out = append(out, HostLines(f.Host)...)
	for _, c := range f.Clients {
		out = append(out, ClientLines(c)...)
	}
	return out
}

// HostLines is the canonical text of a host state (the host part of Final.Lines).
func HostLines(h wire.HostState) []string {
	var out []string
	for _, s := range h.Sessions {
		out = append(out, "session "+s.ID+" parent="+s.Parent+" inherited="+strconv.Itoa(s.Inherited)+
			" persisted="+strconv.Itoa(s.Persisted)+" live="+strconv.FormatBool(s.Live)+
			" root="+strconv.FormatBool(s.Root)+" phase="+s.Phase)
		for _, e := range s.Log {
			out = append(out, "  "+e.String())
		}
		out = append(out, "  questions "+s.Questions.String(), "  inbox "+s.Inbox.String())
	}
	for _, w := range h.Waits {
		out = append(out, "wait "+waitText(w))
	}
	for _, r := range h.Reservations {
		out = append(out, "reservation "+reservationText(r))
	}
	for _, c := range h.Clients {
		out = append(out, "conn "+connText(c))
	}
	for _, p := range h.Pending {
		out = append(out, "pending "+pendingText(p))
	}
	return out
}

// ClientLines is the canonical text of a client state (a client part of Final.Lines).
func ClientLines(c wire.ClientState) []string {
	out := []string{"client " + c.Client + " gen=" + strconv.Itoa(c.Gen) + " connected=" + strconv.FormatBool(c.Connected)}
	for _, card := range c.Cards {
		out = append(out, "  "+card.String())
	}
	for _, d := range c.Drafts {
		out = append(out, "  draft "+d.Key+" "+d.JSON)
	}
	for _, r := range c.Rows {
		out = append(out, "  "+r.String())
	}
	for _, n := range c.Nodes {
		out = append(out, "  "+n.String())
	}
	for _, e := range c.Conversation {
		out = append(out, "  "+e.String())
	}
	return out
}
