package wire

import "strconv"

// The JSON form of a ClientState and a ClientConfig (docs/protocol/client-state.schema.json,
// client-config.schema.json); "?" as for commands (a false flag, an empty string and a nil
// countdown are left out), every list always written:
//
//	{"client":S,"gen":N,"connected"?:true,"cards":[<card>…],"drafts":[<draft>…],"rows":[<row>…],"nodes":[<node>…],"conversation":[<conv>…]}
//	card:  {"key":S,"session":S,"callId"?:S,"kind":S,"state":S,"waitState":S,"countdown"?:{"remainingMs":N,"running"?:true},
//	        "channel":S,"shown"?:true,"seat"?:true,"focus"?:true,"closed"?:true,"busy"?:true,"hint"?:S,"index":N,"draft"?:S,"questions":[<question>…]}
//	draft: {"session":S,"key":S,"json":S}
//	row:   {"session":S,"callId":S,"summary":S,"state":S,"action"?:S,"transcript":[S…],"expanded"?:true}
//	node:  {"session":S,"seq":N,"callId":S,"text"?:S,"lines":[S…],"messageId"?:S,"time":N,"outcome"?:S,"questions":[<question>…]}
//	conv:  {"session":S,"kind":S,"seq":N,"turn":N,"depth":N,"ref"?:S,"folded"?:true,"visible"?:true}
//
//	config: {"name":S,"tickMs"?:N,"seed"?:S,"drafts"?:[<draft>…]}
//
// A config's seed is a decimal string (a uint64 does not fit a JSON number every reader
// keeps exactly). An empty list decodes to nil.

// AppendClientStateJSON appends the JSON form of s. Every ClientState can be written.
func AppendClientStateJSON(b []byte, s ClientState) []byte {
	b = append(b, `{"client":`...)
	b = AppendJSONString(b, s.Client)
	b = append(b, `,"gen":`...)
	b = strconv.AppendInt(b, int64(s.Gen), 10)
	b = appendFlag(b, "connected", s.Connected)
	b = append(b, `,"cards":[`...)
	for i, c := range s.Cards {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"key":`...)
		b = AppendJSONString(b, c.Key)
		b = append(b, `,"session":`...)
		b = AppendJSONString(b, c.Session)
		b = appendOptStr(b, "callId", c.CallID)
		b = append(b, `,"kind":`...)
		b = AppendJSONString(b, c.Kind)
		b = append(b, `,"state":`...)
		b = AppendJSONString(b, c.State)
		b = append(b, `,"waitState":`...)
		b = AppendJSONString(b, c.WaitState)
		if c.Countdown != nil {
			b = append(b, `,"countdown":{"remainingMs":`...)
			b = strconv.AppendInt(b, c.Countdown.RemainingMs, 10)
			b = appendFlag(b, "running", c.Countdown.Running)
			b = append(b, '}')
		}
		b = append(b, `,"channel":`...)
		b = AppendJSONString(b, c.Channel)
		b = appendFlag(b, "shown", c.Shown)
		b = appendFlag(b, "seat", c.Seat)
		b = appendFlag(b, "focus", c.Focus)
		b = appendFlag(b, "closed", c.Closed)
		b = appendFlag(b, "busy", c.Busy)
		b = appendOptStr(b, "hint", c.Hint)
		b = append(b, `,"index":`...)
		b = strconv.AppendInt(b, int64(c.Index), 10)
		b = appendOptStr(b, "draft", c.Draft)
		b = append(b, `,"questions":`...)
		b = AppendQuestionsJSON(b, c.Questions)
		b = append(b, '}')
	}
	b = append(b, `],"drafts":`...)
	b = appendDrafts(b, s.Drafts)
	b = append(b, `,"rows":[`...)
	for i, r := range s.Rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"session":`...)
		b = AppendJSONString(b, r.Session)
		b = append(b, `,"callId":`...)
		b = AppendJSONString(b, r.CallID)
		b = append(b, `,"summary":`...)
		b = AppendJSONString(b, r.Summary)
		b = append(b, `,"state":`...)
		b = AppendJSONString(b, r.State)
		b = appendOptStr(b, "action", r.Action)
		b = append(b, `,"transcript":`...)
		b = appendStrings(b, r.Transcript)
		b = appendFlag(b, "expanded", r.Expanded)
		b = append(b, '}')
	}
	b = append(b, `],"nodes":[`...)
	for i, n := range s.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"session":`...)
		b = AppendJSONString(b, n.Session)
		b = append(b, `,"seq":`...)
		b = strconv.AppendInt(b, int64(n.Seq), 10)
		b = append(b, `,"callId":`...)
		b = AppendJSONString(b, n.CallID)
		b = appendOptStr(b, "text", n.Text)
		b = append(b, `,"lines":`...)
		b = appendStrings(b, n.Lines)
		b = appendOptStr(b, "messageId", n.MessageID)
		b = append(b, `,"time":`...)
		b = strconv.AppendInt(b, n.Time, 10)
		b = appendOptStr(b, "outcome", n.Outcome)
		b = append(b, `,"questions":`...)
		b = AppendQuestionsJSON(b, n.Questions)
		b = append(b, '}')
	}
	b = append(b, `],"conversation":[`...)
	for i, e := range s.Conversation {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"session":`...)
		b = AppendJSONString(b, e.Session)
		b = append(b, `,"kind":`...)
		b = AppendJSONString(b, e.Kind)
		b = append(b, `,"seq":`...)
		b = strconv.AppendInt(b, int64(e.Seq), 10)
		b = append(b, `,"turn":`...)
		b = strconv.AppendInt(b, int64(e.Turn), 10)
		b = append(b, `,"depth":`...)
		b = strconv.AppendInt(b, int64(e.Depth), 10)
		b = appendOptStr(b, "ref", e.Ref)
		b = appendFlag(b, "folded", e.Folded)
		b = appendFlag(b, "visible", e.Visible)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

func appendFlag(b []byte, key string, v bool) []byte {
	if !v {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, key...)
	return append(b, `":true`...)
}

func appendDrafts(b []byte, ds []DraftState) []byte {
	b = append(b, '[')
	for i, d := range ds {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"session":`...)
		b = AppendJSONString(b, d.Session)
		b = append(b, `,"key":`...)
		b = AppendJSONString(b, d.Key)
		b = append(b, `,"json":`...)
		b = AppendJSONString(b, d.JSON)
		b = append(b, '}')
	}
	return append(b, ']')
}

func decodeDrafts(o *object, key string) []DraftState {
	list := o.list(key)
	if len(list) == 0 {
		return nil
	}
	out := make([]DraftState, len(list))
	eachObj(o, key, list, "draft", func(i int, it *object) {
		out[i] = DraftState{Session: it.str("session"), Key: it.str("key"), JSON: it.str("json")}
	})
	return out
}

// DecodeClientState decodes the JSON form of a client state.
func DecodeClientState(data []byte) (ClientState, error) {
	o, err := parseTop(data, "state")
	if err != nil {
		return ClientState{}, err
	}
	o.what = "client state"
	s := ClientState{Client: o.str("client"), Gen: o.int("gen"), Connected: o.flag("connected")}
	if list := o.list("cards"); len(list) > 0 {
		s.Cards = make([]CardState, len(list))
		eachObj(o, "cards", list, "card", func(i int, it *object) {
			c := &s.Cards[i]
			c.Key, c.Session = it.str("key"), it.str("session")
			c.CallID, _ = it.optStr("callId")
			c.Kind, c.State, c.WaitState = it.str("kind"), it.str("state"), it.str("waitState")
			if co, _ := it.optObj("countdown"); co != nil {
				co.what = "countdown"
				c.Countdown = &Countdown{RemainingMs: co.int64("remainingMs"), Running: co.flag("running")}
				it.close(co)
			}
			c.Channel = it.str("channel")
			c.Shown, c.Seat, c.Focus = it.flag("shown"), it.flag("seat"), it.flag("focus")
			c.Closed, c.Busy = it.flag("closed"), it.flag("busy")
			c.Hint, _ = it.optStr("hint")
			c.Index = it.int("index")
			c.Draft, _ = it.optStr("draft")
			c.Questions = decodeQuestions(it, "questions")
		})
	}
	s.Drafts = decodeDrafts(o, "drafts")
	if list := o.list("rows"); len(list) > 0 {
		s.Rows = make([]RowState, len(list))
		eachObj(o, "rows", list, "row", func(i int, it *object) {
			r := &s.Rows[i]
			r.Session, r.CallID, r.Summary, r.State = it.str("session"), it.str("callId"), it.str("summary"), it.str("state")
			r.Action, _ = it.optStr("action")
			r.Transcript = it.strings("transcript")
			r.Expanded = it.flag("expanded")
		})
	}
	if list := o.list("nodes"); len(list) > 0 {
		s.Nodes = make([]NodeState, len(list))
		eachObj(o, "nodes", list, "node", func(i int, it *object) {
			n := &s.Nodes[i]
			n.Session, n.Seq, n.CallID = it.str("session"), it.int("seq"), it.str("callId")
			n.Text, _ = it.optStr("text")
			n.Lines = it.strings("lines")
			n.MessageID, _ = it.optStr("messageId")
			n.Time = it.int64("time")
			n.Outcome, _ = it.optStr("outcome")
			n.Questions = decodeQuestions(it, "questions")
		})
	}
	if list := o.list("conversation"); len(list) > 0 {
		s.Conversation = make([]ConvEntry, len(list))
		eachObj(o, "conversation", list, "conversation entry", func(i int, it *object) {
			e := &s.Conversation[i]
			e.Session, e.Kind = it.str("session"), it.str("kind")
			e.Seq, e.Turn, e.Depth = it.int("seq"), it.int("turn"), it.int("depth")
			e.Ref, _ = it.optStr("ref")
			e.Folded, e.Visible = it.flag("folded"), it.flag("visible")
		})
	}
	if err := o.done(); err != nil {
		return ClientState{}, err
	}
	return s, nil
}

// AppendClientConfigJSON appends the JSON form of c. Every ClientConfig can be written.
func AppendClientConfigJSON(b []byte, c ClientConfig) []byte {
	b = append(b, `{"name":`...)
	b = AppendJSONString(b, c.Name)
	if c.TickMs != 0 {
		b = append(b, `,"tickMs":`...)
		b = strconv.AppendInt(b, c.TickMs.Ms(), 10)
	}
	if c.Seed != 0 {
		b = append(b, `,"seed":"`...)
		b = strconv.AppendUint(b, c.Seed, 10)
		b = append(b, '"')
	}
	if len(c.Drafts) > 0 {
		b = append(b, `,"drafts":`...)
		b = appendDrafts(b, c.Drafts)
	}
	return append(b, '}')
}

// DecodeClientConfig decodes the JSON form of a client configuration.
func DecodeClientConfig(data []byte) (ClientConfig, error) {
	o, err := parseTop(data, "config")
	if err != nil {
		return ClientConfig{}, err
	}
	o.what = "client config"
	c := ClientConfig{Name: o.str("name")}
	tick, _ := o.optInt64("tickMs")
	c.TickMs = Duration(tick)
	if s, ok := o.optStr("seed"); ok && o.err == nil {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil || strconv.FormatUint(v, 10) != s {
			o.fail("seed", "want a decimal uint64 without leading zeros, got "+strconv.Quote(s))
		}
		c.Seed = v
	}
	c.Drafts = decodeDrafts(o, "drafts")
	if err := o.done(); err != nil {
		return ClientConfig{}, err
	}
	return c, nil
}
