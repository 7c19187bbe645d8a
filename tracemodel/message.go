package tracemodel

import (
	"sort"
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// Message is one message between two actors: its send record paired with its receive
// record, or with the network's drop record that lost it. A send record (a host's
// send-frame or reply, a client's result, RPC, claim-stream open or cancel, dial) is
// paired first in first out with the receive record of the same message (its client and
// frame text, rpc id or stream id): the network keeps each link in order. A lost HTTP
// message continues as the network's failure to the client; one still in flight at the
// end of the run has To -1.
type Message struct {
	Kind    string // delivery, frame, cancel, result, rpc, reply, failure, claim, release, connect
	From    int    // record index of the send (a net drop for a failure the network made)
	To      int    // record index of the receive or of the drop; -1: still in flight at the end
	Dest    string // the receiving actor
	Lost    bool   // the network lost or discarded it (To is the drop record)
	Why     string // the drop's reason
	Latency int64  // receive time - send time
	Delayed bool   // much slower than its link's usual latency
}

// pendingMsg is a sent message waiting for its receive or drop record.
type pendingMsg struct {
	kind string
	rec  int
	dest string
}

// matcher pairs sends with receives by a message key, first in first out: the network
// keeps each link in order, and a message's key (its client, its frame text, rpc or
// stream id) is what both ends record of it.
type matcher struct {
	queues map[string][]pendingMsg
	order  []string // keys in first-use order (deterministic in-flight listing)
	msgs   []Message
}

func (m *matcher) send(key, kind string, rec int, dest string) {
	if _, ok := m.queues[key]; !ok {
		m.order = append(m.order, key)
	}
	if kind == "connect" {
		// a newer dial replaces an older one the network absorbed or lost silently
		m.queues[key] = []pendingMsg{{kind, rec, dest}}
		return
	}
	m.queues[key] = append(m.queues[key], pendingMsg{kind, rec, dest})
}

func (m *matcher) take(key string) (pendingMsg, bool) {
	q := m.queues[key]
	if len(q) == 0 {
		return pendingMsg{}, false
	}
	m.queues[key] = q[1:]
	return q[0], true
}

// messages pairs every message of the trace.
func messages(recs []trace.Record) []Message {
	m := &matcher{queues: map[string][]pendingMsg{}}
	for i, r := range recs {
		switch r.Kind {
		case trace.Out:
			if key, kind, dest := sentKey(r.Actor, r.Payload); key != "" {
				m.send(key, kind, i, dest)
			}
		case trace.In:
			if key := receivedKey(r.Actor, r.Payload); key != "" {
				if p, ok := m.take(key); ok {
					m.msgs = append(m.msgs, Message{Kind: p.kind, From: p.rec, To: i, Dest: r.Actor, Latency: r.Time - recs[p.rec].Time})
				}
			}
		case trace.Reject:
			if rj, ok := r.Payload.(trace.Rejected); ok {
				if key := receivedKey(r.Actor, rj.Input); key != "" {
					if p, ok := m.take(key); ok {
						m.msgs = append(m.msgs, Message{Kind: p.kind, From: p.rec, To: i, Dest: r.Actor, Latency: r.Time - recs[p.rec].Time})
					}
				}
			}
		case trace.Drop:
			d, ok := r.Payload.(trace.Dropped)
			if !ok {
				continue
			}
			key, client := droppedKey(d)
			if key == "" {
				continue
			}
			p, ok := m.take(key)
			if !ok {
				continue
			}
			m.msgs = append(m.msgs, Message{Kind: p.kind, From: p.rec, To: i, Dest: p.dest, Lost: true, Why: d.Why})
			if d.Why == trace.WhyLost && (key[0] == 'q' || key[0] == 'h') {
				// HTTP has no silent loss: the client gets a failure from the network
				m.send("h|"+client+"|"+key[len("h|"+client+"|"):], "failure", i, client)
			}
		}
	}
	for _, k := range m.order {
		for _, p := range m.queues[k] {
			if p.kind != "connect" {
				m.msgs = append(m.msgs, Message{Kind: p.kind, From: p.rec, To: -1, Dest: p.dest})
			}
		}
	}
	sort.SliceStable(m.msgs, func(i, j int) bool { return m.msgs[i].From < m.msgs[j].From })
	markDelayed(recs, m.msgs)
	return m.msgs
}

// markDelayed flags a delivered message whose latency is at least twice the (lower)
// median latency of its client's messages on the same transport (HTTP, or the mux link:
// frames, claim streams), both directions, and 100 ms more: a delay fault, a partition,
// a slow draw far from the usual. A client's configured latency is its usual, so a slow
// HTTP link is not "delayed" throughout. Never a connect, whose latency includes the
// client's reconnect backoff.
func markDelayed(recs []trace.Record, msgs []Message) {
	link := func(x Message) string {
		client := x.Dest
		if x.Dest == trace.ActorHost {
			client = recs[x.From].Actor
		}
		switch x.Kind {
		case "result", "rpc", "reply", "failure":
			return "http|" + client
		}
		return "mux|" + client
	}
	counted := func(x Message) bool { return !x.Lost && x.To >= 0 && x.Kind != "connect" }
	byLink := map[string][]int64{}
	for _, x := range msgs {
		if counted(x) {
			byLink[link(x)] = append(byLink[link(x)], x.Latency)
		}
	}
	median := map[string]int64{}
	for k, ls := range byLink {
		s := append([]int64(nil), ls...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		median[k] = s[(len(s)-1)/2]
	}
	for i := range msgs {
		x := &msgs[i]
		if counted(*x) {
			md := median[link(*x)]
			x.Delayed = x.Latency >= 2*md && x.Latency >= md+100
		}
	}
}

func frameKind(f wire.Frame) string {
	switch f.(type) {
	case wire.Waterfall:
		return "delivery"
	case wire.Cancel:
		return "cancel"
	}
	return "frame"
}

// sentKey is the key, kind and destination of a message an Out record sends.
func sentKey(actor string, p trace.Payload) (key, kind, dest string) {
	switch e := p.(type) {
	case wire.SendFrame:
		return "f|" + e.Client + "|" + e.Frame.String(), frameKind(e.Frame), e.Client
	case wire.Reply:
		return "h|" + e.Client + "|" + e.RPCID, "reply", e.Client
	case wire.SendResult:
		return "q|" + actor + "|" + e.RPCID, "result", trace.ActorHost
	case wire.SendCall:
		return "q|" + actor + "|" + e.RPCID, "rpc", trace.ActorHost
	case wire.OpenStream:
		return "o|" + actor + "|" + strconv.Itoa(e.Gen) + "|" + e.StreamID, "claim", trace.ActorHost
	case wire.CancelStream:
		return "c|" + actor + "|" + strconv.Itoa(e.Gen) + "|" + e.StreamID, "release", trace.ActorHost
	case wire.Dial:
		return "d|" + actor, "connect", trace.ActorHost
	}
	return "", "", ""
}

// receivedKey is the key of a message an In (or rejected) record receives.
func receivedKey(actor string, p trace.Payload) string {
	switch e := p.(type) {
	case wire.FromHost:
		return "f|" + actor + "|" + e.Frame.String()
	case wire.FromHTTP:
		return "h|" + actor + "|" + e.RPCID
	}
	if actor != trace.ActorHost {
		return ""
	}
	return commandKey(p)
}

// commandKey is the key of a client's message as the host receives it.
func commandKey(p trace.Payload) string {
	switch c := p.(type) {
	case wire.EventResult:
		return "q|" + c.Client + "|" + c.RPCID
	case wire.Call:
		return "q|" + c.Client + "|" + c.RPCID
	case wire.StreamOpen:
		return "o|" + c.Client + "|" + strconv.Itoa(c.Gen) + "|" + c.StreamID
	case wire.StreamCancel:
		return "c|" + c.Client + "|" + strconv.Itoa(c.Gen) + "|" + c.StreamID
	case wire.Connect:
		return "d|" + c.Client
	}
	return ""
}

// droppedKey is the key of the message a drop record lost, and the client it concerns.
func droppedKey(d trace.Dropped) (key, client string) {
	switch w := d.What.(type) {
	case wire.SendFrame:
		return "f|" + w.Client + "|" + w.Frame.String(), w.Client
	case wire.FromHost:
		return "f|" + d.To + "|" + w.Frame.String(), d.To
	case wire.Reply:
		return "h|" + w.Client + "|" + w.RPCID, w.Client
	case wire.FromHTTP:
		return "h|" + d.To + "|" + w.RPCID, d.To
	case wire.EventResult:
		return commandKey(w), w.Client
	case wire.Call:
		return commandKey(w), w.Client
	case wire.StreamOpen:
		return commandKey(w), w.Client
	case wire.StreamCancel:
		return commandKey(w), w.Client
	}
	return "", ""
}
