package wire

import "strconv"

// The JSON form of a HostState (docs/protocol/host-state.schema.json); "?" as for
// commands, every list always written:
//
//	{"sessions":[<session>…],"waits":[<wait>…],"reservations":[<reservation>…],"clients":[<conn>…],"pending":[<pending>…]}
//	session:     {"id":S,"parent"?:S,"inherited":N,"persisted":N,"log":[<event>…],"questions":<questions view>,"inbox":<inbox view>,"live"?:true,"root"?:true,"phase":S}
//	wait:        {"session":S,"callId":S,"deadline":N,"claims":N,"timerAt":N}
//	reservation: {"session":S,"callId":S,"messageId":S,"claimedTurn":N}
//	conn:        {"client":S,"gen":N,"streams":N}
//	pending:     {"eventId":S,"agentId":S,"deliveries":[S…]}

// AppendHostStateJSON appends the JSON form of s.
func AppendHostStateJSON(b []byte, s HostState) ([]byte, error) {
	out, err := appendHostState(b, s)
	if err != nil {
		return b, within("state", err)
	}
	return out, nil
}

// DecodeHostState decodes the JSON form of a host state.
func DecodeHostState(data []byte) (HostState, error) {
	o, err := parseTop(data, "state")
	if err != nil {
		return HostState{}, err
	}
	s := decodeHostState(o)
	if err := o.done(); err != nil {
		return HostState{}, err
	}
	return s, nil
}

func appendHostState(b []byte, s HostState) ([]byte, error) {
	b = append(b, `{"sessions":[`...)
	for i, ss := range s.Sessions {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = AppendJSONString(b, ss.ID)
		if ss.Parent != "" {
			b = append(b, `,"parent":`...)
			b = AppendJSONString(b, ss.Parent)
		}
		b = append(b, `,"inherited":`...)
		b = strconv.AppendInt(b, int64(ss.Inherited), 10)
		b = append(b, `,"persisted":`...)
		b = strconv.AppendInt(b, int64(ss.Persisted), 10)
		b = append(b, `,"log":`...)
		var err error
		if b, err = appendEvents(b, ss.Log); err != nil {
			return b, within("sessions["+strconv.Itoa(i)+"].log", err)
		}
		b = append(b, `,"questions":`...)
		b = appendQuestionsView(b, ss.Questions)
		b = append(b, `,"inbox":`...)
		b = appendInboxView(b, ss.Inbox)
		if ss.Live {
			b = append(b, `,"live":true`...)
		}
		if ss.Root {
			b = append(b, `,"root":true`...)
		}
		b = append(b, `,"phase":`...)
		b = AppendJSONString(b, ss.Phase)
		b = append(b, '}')
	}
	b = append(b, `],"waits":[`...)
	for i, w := range s.Waits {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"session":`...)
		b = AppendJSONString(b, w.Session)
		b = append(b, `,"callId":`...)
		b = AppendJSONString(b, w.CallID)
		b = append(b, `,"deadline":`...)
		b = strconv.AppendInt(b, w.Deadline, 10)
		b = append(b, `,"claims":`...)
		b = strconv.AppendInt(b, int64(w.Claims), 10)
		b = append(b, `,"timerAt":`...)
		b = strconv.AppendInt(b, w.TimerAt, 10)
		b = append(b, '}')
	}
	b = append(b, `],"reservations":[`...)
	for i, r := range s.Reservations {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"session":`...)
		b = AppendJSONString(b, r.Session)
		b = append(b, `,"callId":`...)
		b = AppendJSONString(b, r.CallID)
		b = append(b, `,"messageId":`...)
		b = AppendJSONString(b, r.MessageID)
		b = append(b, `,"claimedTurn":`...)
		b = strconv.AppendInt(b, int64(r.ClaimedTurn), 10)
		b = append(b, '}')
	}
	b = append(b, `],"clients":[`...)
	for i, c := range s.Clients {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"client":`...)
		b = AppendJSONString(b, c.Client)
		b = append(b, `,"gen":`...)
		b = strconv.AppendInt(b, int64(c.Gen), 10)
		b = append(b, `,"streams":`...)
		b = strconv.AppendInt(b, int64(c.Streams), 10)
		b = append(b, '}')
	}
	b = append(b, `],"pending":[`...)
	for i, p := range s.Pending {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"eventId":`...)
		b = AppendJSONString(b, p.EventID)
		b = append(b, `,"agentId":`...)
		b = AppendJSONString(b, p.AgentID)
		b = append(b, `,"deliveries":`...)
		b = appendStrings(b, p.Deliveries)
		b = append(b, '}')
	}
	return append(b, "]}"...), nil
}

// eachObj calls read for each item of list, the array key of o, as an object, until an
// error.
func eachObj(o *object, key string, list []string, what string, read func(i int, it *object)) {
	for i, v := range list {
		it := o.itemObj(key, i, v)
		if it == nil {
			return
		}
		it.what = what
		read(i, it)
		if !o.close(it) {
			return
		}
	}
}

func decodeHostState(o *object) HostState {
	o.what = "host state"
	var s HostState
	if list := o.list("sessions"); len(list) > 0 {
		s.Sessions = make([]SessionState, len(list))
		eachObj(o, "sessions", list, "session state", func(i int, it *object) {
			ss := &s.Sessions[i]
			ss.ID = it.str("id")
			ss.Parent, _ = it.optStr("parent")
			ss.Inherited = it.int("inherited")
			ss.Persisted = it.int("persisted")
			for _, c := range []struct {
				key string
				n   int
			}{{"inherited", ss.Inherited}, {"persisted", ss.Persisted}} {
				if it.err == nil && c.n < 0 {
					it.fail(c.key, "negative count "+strconv.Itoa(c.n))
				}
			}
			ss.Log = decodeEvents(it, "log")
			if qo := it.obj("questions"); qo != nil {
				ss.Questions = decodeQuestionsView(qo)
				it.close(qo)
			}
			if io := it.obj("inbox"); io != nil {
				ss.Inbox = decodeInboxView(io)
				it.close(io)
			}
			ss.Live = it.flag("live")
			ss.Root = it.flag("root")
			ss.Phase = it.str("phase")
			if it.err == nil && ss.Phase != PhaseIdle && ss.Phase != PhaseRunning {
				it.fail("phase", "unknown phase "+strconv.Quote(ss.Phase))
			}
		})
	}
	if list := o.list("waits"); len(list) > 0 {
		s.Waits = make([]WaitState, len(list))
		eachObj(o, "waits", list, "wait state", func(i int, it *object) {
			s.Waits[i] = WaitState{Session: it.str("session"), CallID: it.str("callId"),
				Deadline: it.int64("deadline"), Claims: it.int("claims"), TimerAt: it.int64("timerAt")}
		})
	}
	if list := o.list("reservations"); len(list) > 0 {
		s.Reservations = make([]ReservationState, len(list))
		eachObj(o, "reservations", list, "reservation state", func(i int, it *object) {
			s.Reservations[i] = ReservationState{Session: it.str("session"), CallID: it.str("callId"),
				MessageID: it.str("messageId"), ClaimedTurn: it.int("claimedTurn")}
		})
	}
	if list := o.list("clients"); len(list) > 0 {
		s.Clients = make([]ConnState, len(list))
		eachObj(o, "clients", list, "connection state", func(i int, it *object) {
			s.Clients[i] = ConnState{Client: it.str("client"), Gen: it.int("gen"), Streams: it.int("streams")}
		})
	}
	if list := o.list("pending"); len(list) > 0 {
		s.Pending = make([]PendingEvent, len(list))
		eachObj(o, "pending", list, "pending event", func(i int, it *object) {
			s.Pending[i] = PendingEvent{EventID: it.str("eventId"), AgentID: it.str("agentId"), Deliveries: it.strings("deliveries")}
		})
	}
	return s
}
