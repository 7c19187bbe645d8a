package trace

import (
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// Choice is a scheduler pick: Of events were due at the same instant (each the head of
// its ordered channel) and the schedule stream chose the Pick-th (from 0, in the order
// the events were scheduled).
type Choice struct{ Pick, Of int }

// String is "pick=P of=N".
func (c Choice) String() string {
	return "pick=" + strconv.Itoa(c.Pick) + " of=" + strconv.Itoa(c.Of)
}

// Injected is a fault (or a network action) the simulator injected.
//
//	crash                                    a host crash between commands
//	crash point=P cut=K/N                    a crash inside an Apply: K of its N effects delivered
//	arm crash point=P                        a scripted crash armed at a point (it lands later)
//	reload c1 | client-crash c1
//	clock-jump c1 by=-5000 | clock-drift c1 ppm=200
//	cancel-turn s1 [keep-inbox]
//	disconnect c1 | reconnect c1 | lose c1
//	partition c1 for=3000 | delay c1 for=500
//
// A fault drawn from the fault stream ends in " random"; one that had nothing to act on
// (a disconnect with no link) ends in " no-op".
type Injected struct {
	Kind   string
	Target string // the client or Session; "" for the host
	Point  string // crash point; "" between commands
	Cut    int    // crash inside an Apply: effects delivered
	Of     int    // crash inside an Apply: effects the Apply produced; -1 between commands
	N      int64  // clock-jump by, clock-drift ppm, partition/delay duration
	Keep   bool   // cancel-turn keep-inbox
	Armed  bool
	Random bool
	NoOp   bool
}

func (f Injected) String() string {
	var b strings.Builder
	if f.Armed {
		b.WriteString("arm ")
	}
	b.WriteString(f.Kind)
	if f.Target != "" {
		b.WriteByte(' ')
		b.WriteString(f.Target)
	}
	if f.Point != "" {
		b.WriteString(" point=")
		b.WriteString(f.Point)
	}
	if !f.Armed && f.Of >= 0 && f.Kind == "crash" {
		b.WriteString(" cut=")
		b.WriteString(strconv.Itoa(f.Cut))
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(f.Of))
	}
	switch f.Kind {
	case "clock-jump", "host-stall":
		b.WriteString(" by=")
		b.WriteString(strconv.FormatInt(f.N, 10))
	case "clock-drift":
		b.WriteString(" ppm=")
		b.WriteString(strconv.FormatInt(f.N, 10))
	case "partition", "delay":
		b.WriteString(" for=")
		b.WriteString(strconv.FormatInt(f.N, 10))
	}
	if f.Keep {
		b.WriteString(" keep-inbox")
	}
	if f.Random {
		b.WriteString(" random")
	}
	if f.NoOp {
		b.WriteString(" no-op")
	}
	return b.String()
}

// Reasons a message is dropped.
const (
	WhyLinkDown   = "link-down"       // the mux link it travelled on went down (disconnect, partition, restart, reload)
	WhyDeadGen    = "dead-gen"        // the host sent a frame for a generation that is not the client's live link
	WhyLost       = "lost"            // an HTTP message lost by a lose action or a partition (the client gets a failure)
	WhyCrashed    = "client-crashed"  // the client is gone
	WhyReloaded   = "client-reloaded" // an HTTP reply for a page that reloaded
	WhyNoRequest  = "no-request"      // an HTTP reply to no outstanding request of that client
	WhyUnknown    = "unknown-client"  // the host addressed a client the run does not have
	WhyNotDialing = "no-redial"       // a Dial the client's ReconnectMs < 0 ignores
)

// Dropped is a message the network lost or discarded: To is its destination ("host" or a
// client), What the message (a wire.Command, wire.ClientInput or wire.Effect).
type Dropped struct {
	To   string
	Why  string
	What Payload
}

// String is "to=c1 why=link-down <what>".
func (d Dropped) String() string {
	s := "to=" + d.To + " why=" + d.Why
	if d.What != nil {
		s += " " + d.What.String()
	}
	return s
}

// Rejected is an input whose Apply returned an error; the actor's state is unchanged.
type Rejected struct {
	Input Payload
	Err   string
}

// String is `<input> error="<message>"`.
func (r Rejected) String() string {
	s := ""
	if r.Input != nil {
		s = r.Input.String() + " "
	}
	return s + "error=" + wire.JSONString(r.Err)
}

// Text is a free-form diagnostic.
type Text string

func (t Text) String() string { return string(t) }

// Snapshot is the state of the host and every client at a probe.
type Snapshot struct {
	Label   string
	Host    wire.HostState
	Clients []wire.ClientState // by client name
}

// String is the label followed by a one-line summary of every actor:
//
//	label host{s1{log=12 persisted=12 idle questions{…} inbox{…}} waits=[…] …} c1{gen=1 up cards=[…]}
func (s Snapshot) String() string {
	var b strings.Builder
	b.WriteString(s.Label)
	b.WriteString(" host{")
	writeHostSummary(&b, s.Host)
	b.WriteByte('}')
	for _, c := range s.Clients {
		b.WriteByte(' ')
		writeClientSummary(&b, c)
	}
	return b.String()
}

func writeHostSummary(b *strings.Builder, h wire.HostState) {
	for i, ss := range h.Sessions {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ss.ID)
		b.WriteString("{log=")
		b.WriteString(strconv.Itoa(len(ss.Log)))
		b.WriteString(" persisted=")
		b.WriteString(strconv.Itoa(ss.Persisted))
		if ss.Phase != "" {
			b.WriteByte(' ')
			b.WriteString(ss.Phase)
		}
		b.WriteString(" questions{")
		b.WriteString(ss.Questions.String())
		b.WriteString("} inbox{")
		b.WriteString(ss.Inbox.String())
		b.WriteString("}}")
	}
	list := func(name string, n int, item func(i int)) {
		if n == 0 {
			return
		}
		b.WriteByte(' ')
		b.WriteString(name)
		b.WriteString("=[")
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			item(i)
		}
		b.WriteByte(']')
	}
	list("waits", len(h.Waits), func(i int) { b.WriteString(waitText(h.Waits[i])) })
	list("reservations", len(h.Reservations), func(i int) { b.WriteString(reservationText(h.Reservations[i])) })
	list("conns", len(h.Clients), func(i int) { b.WriteString(connText(h.Clients[i])) })
	list("pending", len(h.Pending), func(i int) { b.WriteString(pendingText(h.Pending[i])) })
}

func writeClientSummary(b *strings.Builder, c wire.ClientState) {
	b.WriteString(c.Client)
	b.WriteString("{gen=")
	b.WriteString(strconv.Itoa(c.Gen))
	if c.Connected {
		b.WriteString(" up")
	} else {
		b.WriteString(" down")
	}
	b.WriteString(" cards=[")
	for i, card := range c.Cards {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(card.String())
	}
	b.WriteString("] drafts=[")
	for i, d := range c.Drafts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.Key)
	}
	b.WriteString("]}")
}

func waitText(w wire.WaitState) string {
	return w.Session + "/" + w.CallID + " deadline=" + strconv.FormatInt(w.Deadline, 10) +
		" claims=" + strconv.Itoa(w.Claims) + " timer=" + strconv.FormatInt(w.TimerAt, 10)
}

func reservationText(r wire.ReservationState) string {
	return r.Session + "/" + r.CallID + " msg=" + r.MessageID + " claimed-turn=" + strconv.Itoa(r.ClaimedTurn)
}

func connText(c wire.ConnState) string {
	return c.Client + "." + strconv.Itoa(c.Gen) + " streams=" + strconv.Itoa(c.Streams)
}

func pendingText(p wire.PendingEvent) string {
	return p.EventID + " agent=" + p.AgentID + " deliveries=" + strings.Join(p.Deliveries, ",")
}
