package scenarios

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// Validate checks what a scenario means, beyond what a YAML decoder can see: names,
// references (Sessions, clients, call ids, result ids), step order and the combinations
// of fields each action and expectation allows. Decode calls it; a generator should call
// it on what it produced. The error is an Errors value; positions come from the values'
// Pos (zero for generated values).
func Validate(s *Scenario) error {
	if s == nil {
		return Errors{{Msg: "no scenario"}}
	}
	v := &validator{s: s, sessions: map[string]bool{}, clients: map[string]bool{}}
	v.run()
	return v.errs.err()
}

type validator struct {
	s        *Scenario
	errs     Errors
	sessions map[string]bool
	clients  map[string]bool
	calls    map[string]bool
	results  map[string]bool
}

func (v *validator) fail(p Pos, hint, format string, args ...any) {
	if len(v.errs) < maxErrors {
		v.errs = append(v.errs, &Error{Pos: p, Msg: fmt.Sprintf(format, args...), Hint: hint})
	}
}

// The limits of one scenario (FORMAT.md, "Limits"): a scenario is a reviewed example,
// and a generated or hostile one past these would only stall a run. MaxNesting is the
// decoder's (YAML nesting), MaxFileSize the reader's.
const (
	MaxSteps     = 20000
	MaxClients   = 16
	MaxQuestions = 64 // questions in one ask
	MaxOptions   = 64 // options of one question
	MaxNesting   = 64
)

func (v *validator) limits() {
	s := v.s
	if len(s.Steps) > MaxSteps {
		v.fail(s.Steps[MaxSteps].Pos, "split it into several scenarios", "more than %d steps", MaxSteps)
	}
	if len(s.Clients) > MaxClients {
		v.fail(s.Clients[MaxClients].Pos, "a scenario shows a few clients; fuzz for more", "more than %d clients", MaxClients)
	}
}

func (v *validator) run() {
	s := v.s
	v.limits()
	if !nameRe.MatchString(s.Name) {
		v.fail(s.Pos, "use lowercase words joined by dashes, like "+suggestName(s.Name), "the name %q is not lowercase words joined by dashes", s.Name)
	}
	if strings.TrimSpace(s.Summary) == "" || strings.Contains(s.Summary, "\n") {
		v.fail(s.Pos, "say what the scenario shows in one line", "the summary must be one non-empty line")
	}
	seen := map[string]bool{}
	for _, id := range s.Covers {
		if !KnownRequirement(id) {
			v.fail(s.Pos, "the ids are listed in docs/REQUIREMENTS.md", "unknown requirement id %q", id)
		} else if seen[id] {
			v.fail(s.Pos, "list each id once", "%s is listed twice", id)
		}
		seen[id] = true
	}
	if s.Mode != "" && s.Mode != ModeLegacy && s.Mode != ModeTimed {
		v.fail(s.Pos, oneOf(s.Mode, modes), "unknown mode %q", s.Mode)
	}
	if (s.WriteWindow != nil && *s.WriteWindow < 0) || s.Limit < 0 || (s.AutoEnd < 0 && s.AutoEnd != Never) {
		v.fail(s.Pos, "write a positive duration", "write-window, limit and auto-end cannot be negative")
	}

	sessions := s.Sessions
	if len(sessions) == 0 {
		sessions = []Session{{Name: DefaultSession}}
	}
	for _, x := range sessions {
		if !identRe.MatchString(x.Name) || reserved(x.Name) {
			v.fail(x.Pos, "pick a short name like s1", "%q cannot name a Session", x.Name)
		}
		if v.sessions[x.Name] {
			v.fail(x.Pos, "give each Session its own name", "Session %s is declared twice", x.Name)
		}
		if x.Owner != "" && !v.sessions[x.Owner] {
			v.fail(x.Pos, "declare the owner before the child", "the owner %q of Session %s is not a Session declared before it", x.Owner, x.Name)
		}
		v.sessions[x.Name] = true
	}
	for _, c := range s.Clients {
		if !clientNameRe.MatchString(c.Name) || reserved(c.Name) {
			v.fail(c.Pos, "use a short lowercase name like a, b or phone", "%q cannot name a client", c.Name)
		}
		if v.clients[c.Name] {
			v.fail(c.Pos, "give each client its own name", "client %s is declared twice", c.Name)
		}
		v.clients[c.Name] = true
		for _, l := range []*Latency{&c.Latency, c.HTTP} {
			if l != nil && (l.Min < 0 || l.Max < l.Min) {
				v.fail(c.Pos, "write a latency like 20ms or 10ms..50ms", "client %s has a latency that runs backwards or below zero", c.Name)
			}
		}
		if c.Tick < 0 || (c.Reconnect != nil && *c.Reconnect < 0) {
			v.fail(c.Pos, "write a positive duration", "client %s has a negative tick or reconnect", c.Name)
		}
		if c.Drift < -1_000_000 || c.Drift > 1_000_000 {
			v.fail(c.Pos, "write a drift between -1000000ppm and 1000000ppm", "client %s has an impossible drift", c.Name)
		}
	}
	v.calls = CallIDs(s)
	v.results = map[string]bool{}
	for i, id := range ServiceIDs(s) {
		if id == "" {
			continue
		}
		if v.results[id] {
			v.fail(s.Steps[i].Pos, "give each service call its own id", "the service result id %s is used twice", id)
		}
		v.results[id] = true
	}

	var last Duration
	for i := range s.Steps {
		st := &s.Steps[i]
		if st.At < 0 {
			v.fail(st.Pos, "times count from 0", "a step cannot happen before the start")
		}
		if st.At < last {
			v.fail(st.Pos, "list the steps in time order (or move this one to "+last.String()+" or later)", "this step at %s comes after a step at %s", st.At, last)
		}
		if st.At > last {
			last = st.At
		}
		if s.Limit > 0 && st.At > s.Limit {
			v.fail(st.Pos, "raise limit: or move the step earlier", "this step at %s is after the limit %s", st.At, s.Limit)
		}
		v.step(st)
	}
	for i := range s.Expect {
		v.expectation(&s.Expect[i])
	}
	if x := s.Explore; x != nil {
		if x.Seeds < 0 || x.Jitter < 0 || x.Healed < 0 {
			v.fail(x.Pos, "write positive values", "explore has a negative value")
		}
		for _, r := range []float64{x.Faults.Crash, x.Faults.Disconnect, x.Faults.Reload, x.Faults.ClockJump, x.Faults.Partition, x.Faults.Lose} {
			if r < 0 || r != r || r > 1e6 {
				v.fail(x.Pos, "write a rate per simulated minute, like 0.5 or 2", "explore has an impossible fault rate")
			}
		}
	}
}

func reserved(name string) bool {
	for _, r := range reservedIDs {
		if name == r {
			return true
		}
	}
	return false
}

// ServiceIDs returns, for each step, the result id of its service call ("" for other
// steps): the explicit id, or d1, d2, ... counting the service steps.
func ServiceIDs(s *Scenario) []string {
	out := make([]string, len(s.Steps))
	n := 0
	for i, st := range s.Steps {
		if st.Service == nil {
			continue
		}
		n++
		out[i] = st.Service.ID
		if out[i] == "" {
			out[i] = "d" + strconv.Itoa(n)
		}
	}
	return out
}

// AskTimedCall is the call id an ask-timed service call uses.
func AskTimedCall(c *ServiceCall, id string) string {
	if c.Call != "" {
		return c.Call
	}
	return id
}

// SubCallID is the id the runtime mints for the n-th (from 1) sub-call of run call.
func SubCallID(call string, n int) string { return call + ":ptc:" + strconv.Itoa(n) }

// CallIDs returns every call id a scenario can refer to: model calls, the sub-calls of
// its run calls, and the calls of its service asks.
func CallIDs(s *Scenario) map[string]bool {
	out := map[string]bool{}
	ids := ServiceIDs(s)
	for i, st := range s.Steps {
		switch {
		case st.Model != nil && st.Model.Call != "":
			out[st.Model.Call] = true
			for n := range st.Model.Calls {
				out[SubCallID(st.Model.Call, n+1)] = true
			}
		case st.Service != nil && st.Service.Kind == ServiceAsk && st.Service.Call != "":
			out[st.Service.Call] = true
		case st.Service != nil && st.Service.Kind == ServiceAskTimed:
			if st.Service.Body != "" {
				var b struct {
					CallID string `json:"callId"`
				}
				if json.Unmarshal([]byte(st.Service.Body), &b) == nil && b.CallID != "" {
					out[b.CallID] = true
				}
			} else {
				out[AskTimedCall(st.Service, ids[i])] = true
			}
		case st.User != nil && st.User.Kind == UserInput:
			if u, ok := inputUpdate(st.User.Input); ok {
				for _, e := range u.Events {
					if c, ok := e.Data.(session.ToolCall); ok && c.CallID != "" {
						out[c.CallID] = true
					}
				}
			}
			if id := inputWaitCall(st.User.Input); id != "" {
				out[id] = true
			}
		case st.Host != nil && st.Host.Kind == HostAppend:
			// a call written by hand is a call of the scenario (its card, row, result)
			var c struct{ Type, CallID string }
			if json.Unmarshal([]byte(st.Host.Event), &c) == nil && c.Type == session.TypeToolCall && c.CallID != "" {
				out[c.CallID] = true
			}
		}
	}
	return out
}

// inputWaitCall is the call id of the wait a waterfall an input step delivers names, if
// any: its card is named by that call id.
func inputWaitCall(raw string) string {
	in, err := wire.DecodeClientInput([]byte(raw))
	if err != nil {
		return ""
	}
	fh, ok := in.(wire.FromHost)
	if !ok {
		return ""
	}
	w, ok := fh.Frame.(wire.Waterfall)
	if !ok {
		return ""
	}
	var req struct {
		Wait struct {
			CallID string `json:"callId"`
		} `json:"wait"`
	}
	if json.Unmarshal(w.Request, &req) != nil {
		return ""
	}
	return req.Wait.CallID
}

// inputUpdate is the Session update an input step delivers, if it delivers one: its
// Session and tool calls are known to the scenario from that step on (a client may be
// shown a Session the host never opened, as a real host may send it).
func inputUpdate(raw string) (wire.SessionUpdate, bool) {
	in, err := wire.DecodeClientInput([]byte(raw))
	if err != nil {
		return wire.SessionUpdate{}, false
	}
	fh, ok := in.(wire.FromHost)
	if !ok {
		return wire.SessionUpdate{}, false
	}
	u, ok := fh.Frame.(wire.SessionUpdate)
	return u, ok
}

var rawSubCall = regexp.MustCompile(`^(.+):ptc:[1-9][0-9]*$`)

// knownCall reports whether id names a call of the scenario (a sub-call of a run written
// with raw arguments counts for any n).
func (v *validator) knownCall(id string) bool {
	if v.calls[id] {
		return true
	}
	if m := rawSubCall.FindStringSubmatch(id); m != nil {
		for _, st := range v.s.Steps {
			if st.Model != nil && st.Model.Kind == ModelRun && st.Model.Call == m[1] && st.Model.Args != "" {
				return true
			}
		}
	}
	return false
}

var unkeyedCard = regexp.MustCompile(`^#[1-9][0-9]*$`)

func (v *validator) card(p Pos, card string) {
	if card == "" || unkeyedCard.MatchString(card) || v.knownCall(card) {
		return
	}
	v.fail(p, "name a call id of this scenario ("+v.callList()+"), #N for the N-th card with no call id, or leave the card out for the one in the composer seat", "unknown card %q", card)
}

func (v *validator) callList() string {
	ids := make([]string, 0, len(v.calls))
	for id := range v.calls {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if len(ids) == 0 {
		return "none yet"
	}
	return strings.Join(ids, ", ")
}

func (v *validator) clientList() string {
	var names []string
	for _, c := range v.s.Clients {
		names = append(names, c.Name)
	}
	if len(names) == 0 {
		return "none declared"
	}
	return strings.Join(names, ", ")
}

func (v *validator) session(p Pos, name string) {
	if name != "" && !v.sessions[name] {
		v.fail(p, "open it first (sessions:, or a host open step before this one)", "unknown Session %q", name)
	}
}

func (v *validator) client(p Pos, name string) {
	if !v.clients[name] {
		v.fail(p, "the clients are "+v.clientList(), "unknown client %q", name)
	}
}

func (v *validator) questions(p Pos, qs []Question, service bool) {
	if len(qs) > MaxQuestions {
		v.fail(p, "ask fewer questions at once", "more than %d questions in one ask", MaxQuestions)
	}
	for _, q := range qs {
		if len(q.Options) > MaxOptions {
			v.fail(p, "offer fewer options", "more than %d options in one question", MaxOptions)
		}
		if q.ID == "" || q.Question == "" {
			v.fail(p, "give each question an id and a question", "a question without id or text")
		}
		if !service && (q.Detail != "" || q.PlanReview != "") {
			v.fail(p, "the model's schema has neither; ask through service: to use them", "detail and plan-review are for service asks")
		}
		for _, o := range q.Options {
			if o.Label == "" {
				v.fail(p, "give each option a label", "an option without a label")
			}
		}
	}
}

func (v *validator) step(st *Step) {
	n := 0
	for _, set := range []bool{st.Model != nil, st.Host != nil, st.Service != nil, st.Net != nil, st.User != nil, st.Inject != nil} {
		if set {
			n++
		}
	}
	if n != 1 || (st.User != nil) != (st.Client != "") {
		v.fail(st.Pos, "give the step exactly one actor", "a step has %d actors", n)
		return
	}
	v.session(st.Pos, st.Session)
	if st.Refused != "" && !Refusable(st) {
		v.fail(st.Pos, "only user actions on cards and rows, model, service and host open/close/restart steps can be refused", "a %s step cannot be refused", st.Actor())
	}
	if st.Session != "" && (st.Host != nil || st.Net != nil) {
		v.fail(st.Pos, "session: goes with model, service and client steps", "a %s step is not about one Session", st.Actor())
	}
	switch {
	case st.Model != nil:
		v.model(st.Pos, st.Model)
	case st.Host != nil:
		v.host(st.Pos, st.Host)
	case st.Service != nil:
		v.service(st.Pos, st.Service)
	case st.Inject != nil:
		x := st.Inject
		v.client(st.Pos, x.Client)
		n := 0
		for _, set := range []bool{x.Next, x.HasAns, x.Rejected != "", x.Attach != ""} {
			if set {
				n++
			}
		}
		if n != 1 {
			v.fail(st.Pos, "write one of next: true, answer: {...}, rejected: \"Name/CODE: message\" or attach: CALL", "an injected step is one of next, answer, rejected or attach")
		}
		if x.Rejected != "" {
			if _, _, _, ok := ParseRejection(x.Rejected); !ok {
				v.fail(st.Pos, "write Name: message, or Name/CODE: message, like UserQuestionError/ASK_TIMED_OUT: too late", "rejected %q is not an error", x.Rejected)
			}
		}
		switch {
		case x.Attach != "" && x.Event != "":
			v.fail(st.Pos, "leave event: out: a claim stream names its call, not a delivery", "attach takes no event:")
		case x.Attach == "" && x.Event == "":
			v.fail(st.Pos, "name the delivery's event id, like e1", "an injected outcome needs event:")
		}
	case st.Net != nil:
		v.client(st.Pos, st.Net.Client)
		switch st.Net.Kind {
		case NetDisconnect, NetReconnect, NetLose:
		case NetPartition:
			if st.Net.For <= 0 {
				v.fail(st.Pos, "write for: 2s", "a partition needs a positive for:")
			}
		case NetDelay:
			if st.Net.By <= 0 {
				v.fail(st.Pos, "write by: 500ms", "a delay needs a positive by:")
			}
		default:
			v.fail(st.Pos, "", "unknown net action %q", st.Net.Kind)
		}
	default:
		v.client(st.Pos, st.Client)
		v.user(st.Pos, st.User)
		if st.User != nil && st.User.Kind == UserInput {
			if u, ok := inputUpdate(st.User.Input); ok && u.Session != "" {
				v.sessions[u.Session] = true
			}
		}
	}
}

func (v *validator) model(p Pos, m *ModelAction) {
	needCall := func() {
		if m.Call == "" {
			v.fail(p, "add call: c1", "a model %s needs a call id", m.Kind)
		}
	}
	switch m.Kind {
	case ModelHeader, ModelEndStep, ModelEndTurn, ModelCancel:
	case ModelAsk:
		needCall()
		if m.Args == "" {
			v.questions(p, m.Questions, false)
		}
	case ModelRun:
		needCall()
		for _, c := range m.Calls {
			switch c.Kind {
			case SubAsk:
				if c.Args == "" {
					v.questions(p, c.Questions, false)
				} else if !json.Valid([]byte(c.Args)) {
					v.fail(p, "a sub-call's arguments are a JSON object", "the raw arguments of a sub-call are not JSON")
				}
			case SubSleep:
				if c.For < 0 {
					v.fail(p, "write a positive duration", "a sleep cannot be negative")
				}
			case SubTool:
				if c.Name == "" || (c.Args != "" && !json.Valid([]byte(c.Args))) {
					v.fail(p, "write tool: name and args: '{...}'", "a tool sub-call needs a name and JSON arguments")
				}
			default:
				v.fail(p, "write ask, sleep or tool", "unknown sub-call %q", c.Kind)
			}
		}
	case ModelSleep:
		needCall()
		if m.For < 0 {
			v.fail(p, "write a positive duration", "a sleep cannot be negative")
		}
	case ModelTool:
		needCall()
		if m.Name == "" {
			v.fail(p, "add tool: name", "a tool call needs a tool name")
		}
	case ModelPrompt, ModelSteer:
	default:
		v.fail(p, "", "unknown model action %q", m.Kind)
	}
}

func (v *validator) host(p Pos, h *HostAction) {
	switch h.Kind {
	case HostRestart:
	case HostCrash:
		found := false
		for _, c := range CrashPoints {
			found = found || c == h.Point
		}
		if !found {
			v.fail(p, oneOf(h.Point, CrashPoints), "unknown crash point %q", h.Point)
		}
		if h.Effects != 0 && h.Point != "after-effect" {
			v.fail(p, "effects: goes with crash: after-effect", "effects: at a crash point that cuts no effects")
		}
	case HostOpen:
		if h.Session == "" || reserved(h.Session) || !identRe.MatchString(h.Session) {
			v.fail(p, "name the new Session", "open needs a Session name")
		} else if v.sessions[h.Session] {
			v.fail(p, "pick a new name", "Session %s is already open", h.Session)
		}
		if h.Owner != "" {
			v.session(p, h.Owner)
		}
		if h.Fork != "" {
			v.session(p, h.Fork)
			if h.Owner != "" {
				v.fail(p, "open either a child (owner) or a fork (fork)", "a Session cannot be both a child and a fork")
			}
		} else if h.Through != -1 {
			v.fail(p, "through: goes with fork:", "through: without fork:")
		}
		if h.Through < -1 {
			v.fail(p, "write the last inherited seq, or -1 for none", "through cannot be below -1")
		}
		v.sessions[h.Session] = true
	case HostClose, HostFailInboxWrite:
		v.session(p, h.Session)
	case HostStall:
		if h.For <= 0 {
			v.fail(p, "write a positive duration: stall: 3s", "a stall lasts a positive time")
		}
	case HostClaimReply:
		v.session(p, h.Session)
		if h.Call == "" {
			v.fail(p, "write call: c1", "claim-reply needs the call whose reply is claimed")
		}
		if h.Turn < 1 {
			v.fail(p, "write turn: 1 or later", "claim-reply needs a turn from 1")
		}
	case HostAppend:
		v.session(p, h.Session)
		if h.Event == "" {
			v.fail(p, `write the event: event: '{"type":"turn/end","turn":1,"reason":{"kind":"completed"}}'`, "append needs an event")
		}
	default:
		v.fail(p, "", "unknown host action %q", h.Kind)
	}
}

func (v *validator) service(p Pos, c *ServiceCall) {
	if c.Agent != "" && c.Agent != AgentLive && c.Agent != AgentStale && c.Agent != AgentNone {
		v.fail(p, oneOf(c.Agent, agents), "unknown agent %q", c.Agent)
	}
	if c.Body != "" {
		if !json.Valid([]byte(c.Body)) {
			v.fail(p, "check the JSON", "the raw body is not JSON")
		}
		if c.Call != "" || c.Timed || c.Timeout != nil || c.Aborted || len(c.Questions) > 0 || len(c.Answers) > 0 {
			v.fail(p, "put everything inside the raw body", "a raw body replaces the other fields")
		}
		return
	}
	switch c.Kind {
	case ServiceAsk:
		v.questions(p, c.Questions, true)
		if c.Timed && c.Call == "" {
			v.fail(p, "add wait: with the call id", "timed: true needs wait:")
		}
	case ServiceAskTimed:
		v.questions(p, c.Questions, true)
	case ServiceAnswer:
		if c.Call == "" {
			v.fail(p, "add call: with the call id answered", "answer needs call:")
		}
		for _, a := range c.Answers {
			if a.ID == "" {
				v.fail(p, "name each answer by its question id", "an answer without a question id")
			}
		}
	default:
		v.fail(p, "", "unknown service call %q", c.Kind)
	}
}

func (v *validator) user(p Pos, u *UserAction) {
	known := false
	for _, w := range append(append([]string{UserChoose, UserType, UserClock, UserDrift, UserInput}, userCardVerbs...), userWords...) {
		known = known || w == u.Kind
	}
	if !known {
		v.fail(p, "", "unknown user action %q", u.Kind)
		return
	}
	v.card(p, u.Card)
	switch u.Kind {
	case UserChoose:
		if u.Label == "" {
			v.fail(p, "write the option's label", "choose needs a label")
		}
	case UserClock:
		if u.By == 0 {
			v.fail(p, "write a jump like +30s", "a clock jump of 0 does nothing")
		}
	case UserInput:
		if _, err := wire.DecodeClientInput([]byte(u.Input)); err != nil {
			v.fail(p, "write a client input of docs/PROTOCOL.md (Clients)", "input is not a client input: %v", err)
		}
		if u.Card != "" {
			v.fail(p, "", "input is not about a card")
		}
	case UserWindowBlur, UserWindowFocus, UserTeardown, UserReload, UserCrash, UserUnbind, UserBind:
		if u.Card != "" || u.Question != "" {
			v.fail(p, "write it as a plain word", "%s is not about a card", u.Kind)
		}
	}
	if u.Question != "" && u.Kind != UserChoose && u.Kind != UserType && u.Kind != UserSkip {
		v.fail(p, "q: goes with choose, type and skip", "q: does not go with %s", u.Kind)
	}
	if u.By != 0 && u.Kind != UserClock || u.PPM != 0 && u.Kind != UserDrift || u.Label != "" && u.Kind != UserChoose || u.Text != "" && u.Kind != UserType || u.Input != "" && u.Kind != UserInput {
		v.fail(p, "", "a field that does not go with %s", u.Kind)
	}
}

// Refusable reports whether a step reaches a port as an input that can be refused
// (faults and network actions cannot).
func Refusable(st *Step) bool {
	switch {
	case st.Model != nil, st.Service != nil, st.Inject != nil:
		return true
	case st.Host != nil:
		return st.Host.Kind != HostCrash && st.Host.Kind != HostFailInboxWrite && st.Host.Kind != HostStall
	case st.User != nil:
		switch st.User.Kind {
		case UserReload, UserCrash, UserClock, UserDrift:
			return false
		}
		return true
	}
	return false
}

// ParseRejection reads "Name: message" or "Name/CODE: message".
func ParseRejection(s string) (name, code, message string, ok bool) {
	head, msg, found := strings.Cut(s, ": ")
	if !found || head == "" || strings.ContainsAny(head, " ") {
		return "", "", "", false
	}
	name, code, _ = strings.Cut(head, "/")
	return name, code, msg, name != ""
}

// clientKinds are the expectations about one client's view.
var clientKinds = map[string]bool{ExpectCard: true, ExpectRow: true, ExpectNode: true, ExpectDraft: true}

func (v *validator) expectation(e *Expectation) {
	p := e.Pos
	o := expectKind(e.Kind)
	if o == nil {
		v.fail(p, "write one of "+strings.Join(expectKindNames(), ", "), "unknown expectation %q", e.Kind)
		return
	}
	if e.At < 0 {
		v.fail(p, "times count from 0", "an expectation before the start")
	}
	if e.End && e.At != 0 {
		v.fail(p, "", "an expectation both at a time and at the end")
	}
	if v.s.Limit > 0 && e.At > v.s.Limit {
		v.fail(p, "raise limit: or look earlier", "this expectation at %s is after the limit %s", e.At, v.s.Limit)
	}
	allowed := map[string]bool{}
	for _, k := range o.Keys {
		allowed[k.Name] = true
	}
	set := e.assertions()
	for _, name := range set {
		if !allowed[name] {
			v.fail(p, "the keys of "+e.Kind+" are "+strings.Join(o.names(), ", "), "%s does not go with a %s expectation", name, e.Kind)
		}
	}
	if e.None && len(set) > 1 {
		others := []string{}
		for _, n := range set {
			if n != "none" && n != "session" && n != "client" && n != "time" {
				others = append(others, n)
			}
		}
		if len(others) > 0 {
			v.fail(p, "an absent thing has no other properties", "none: true with %s", strings.Join(others, ", "))
		}
	}
	outcomes := 0
	for _, n := range set {
		switch n {
		case "pending", "answers", "error", "text", "value", "none":
			outcomes++
		}
	}
	if outcomes > 1 && (e.Kind == ExpectToolResult || e.Kind == ExpectResult) {
		v.fail(p, "assert one outcome: pending, answers, error, text, value or none", "a result has one outcome")
	}
	if e.Session != "" {
		v.session(p, e.Session)
	}
	if e.Client != "" {
		v.client(p, e.Client)
	} else if clientKinds[e.Kind] && len(v.s.Clients) != 1 {
		if len(v.s.Clients) == 0 {
			v.fail(p, "declare a client under clients:", "a %s expectation needs a client", e.Kind)
		} else {
			v.fail(p, "add client: one of "+v.clientList(), "with several clients a %s expectation names its client", e.Kind)
		}
	}
	switch e.Kind {
	case ExpectToolResult, ExpectHostWait, ExpectReservation, ExpectRow, ExpectNode:
		if !v.knownCall(e.Subject) {
			v.fail(p, "the calls are "+v.callList(), "unknown call %q", e.Subject)
		}
	case ExpectCard, ExpectDraft:
		v.card(p, e.Subject)
		if e.Subject == "" {
			v.fail(p, "name the card's call id, or #N", "a %s expectation names its card", e.Kind)
		}
	case ExpectResult:
		if !v.results[e.Subject] {
			v.fail(p, "name a service call's id (default d1, d2, ... in step order)", "unknown service result %q", e.Subject)
		}
	case ExpectReply, ExpectLink, ExpectConversation:
		v.client(p, e.Subject)
	case ExpectAgent:
		v.session(p, e.Subject)
	case ExpectHostConfig, ExpectOracle:
		if !e.End {
			v.fail(p, "write at: end", "a %s expectation is about the whole run", e.Kind)
		}
	case ExpectView, ExpectInbox, ExpectEvent, ExpectRecord:
		if e.Subject == "" {
			v.fail(p, "write the text to look for", "an empty %s", e.Kind)
		}
	}
	if e.Kind == ExpectView && (e.ViewCall == "") != (e.ViewQuestions == nil) {
		v.fail(p, "write call: and questions: together", "a view's questions belong to one call")
	}
	if e.Countdown != "" {
		if _, err := ParseCountdown(e.Countdown); err != nil {
			v.fail(p, "write the remaining time and running or paused, like 3s running, or none", "countdown %q is not a countdown", e.Countdown)
		}
	}
	if e.Timer != "" && e.Timer != "none" {
		if d, err := ParseDuration(e.Timer); err != nil || d < 0 {
			v.fail(p, "write a time or none", "timer %q is not a time", e.Timer)
		}
	}
	if e.Value != "" && !json.Valid([]byte(e.Value)) {
		v.fail(p, "check the JSON", "value is not JSON")
	}
}

// assertions lists the YAML keys set on an expectation besides at and its kind.
func (e *Expectation) assertions() []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(e.Session != "", "session")
	add(e.Client != "", "client")
	add(e.Pending, "pending")
	add(e.HasAns, "answers")
	add(e.Error != "", "error")
	add(e.Value != "", "value")
	add(e.Text != "", "text")
	add(e.Contains != "", "contains")
	add(e.None, "none")
	add(e.Time != nil, "time")
	add(e.Count != nil, "count")
	add(e.Claims != nil, "claims")
	add(e.Deadline != nil, "deadline")
	add(e.Timer != "", "timer")
	add(e.Claimed != nil, "claimed")
	add(e.Live != nil, "live")
	add(e.Root != nil, "root")
	add(e.Phase != "", "phase")
	add(e.State != "", "state")
	add(e.Wait != "", "wait")
	add(e.Countdown != "", "countdown")
	add(e.Channel != "", "channel")
	add(e.Shown != nil, "shown")
	add(e.Closed != nil, "closed")
	add(e.Busy != nil, "busy")
	add(e.Hint != "", "hint")
	add(e.Seat != nil, "seat")
	add(e.Focus != nil, "focus")
	add(e.CardKind != "", "kind")
	add(e.Draft != "", "composer")
	add(e.Summary != "", "summary")
	add(e.Action != nil, "action")
	add(e.Lines != nil, "lines")
	add(e.Raw != nil, "raw")
	add(e.Connected != nil, "connected")
	add(e.Gen != nil, "gen")
	return out
}
