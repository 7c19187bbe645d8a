package scenarios

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/twosettle/twosettle/engine/questions"
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
	// more counts the errors past maxErrors (dropped of them).
	more    *Error
	dropped int
}

func (v *validator) fail(p Pos, hint, format string, args ...any) {
	v.errs = capped(v.errs, &v.more, &v.dropped, p.File, &Error{Pos: p, Msg: fmt.Sprintf(format, args...), Hint: hint})
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
	if msg, hint := refusedTimeout(s); msg != "" {
		v.fail(s.Pos, hint, "%s", msg)
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

// refusedTimeout is the error (and its hint) of a configured default timeout the
// reference host refuses when it registers the tool (TOOL-3: questions.CheckToolConfig),
// "" when the host takes it or the scenario expects the refusal (a host-config: refused
// expectation, which shows it). Such a scenario could never run, so check refuses it at
// the timeout: key rather than let run report a refused host.
func refusedTimeout(s *Scenario) (msg, hint string) {
	if s.Timeout == nil || s.Mode != ModeTimed {
		return "", ""
	}
	t := *s.Timeout
	if questions.CheckToolConfig(questions.ToolConfig{Mode: s.Mode, Timeout: int(t), TimeoutSet: true}) == nil {
		return "", ""
	}
	for i := range s.Expect {
		if e := &s.Expect[i]; e.Kind == ExpectHostConfig && e.Subject == "refused" {
			return "", ""
		}
	}
	hint = fmt.Sprintf("write -1 (wait indefinitely) or whole seconds from 1 to %d", questions.MaxTimeoutSec)
	if t == 0 {
		hint += "; leave timeout: out for the tool's default (120)"
	}
	hint += "; to show the refusal, expect it: {at: end, host-config: refused}"
	return fmt.Sprintf("the host refuses timeout %d: the tool's default timeout must be -1 or 1..%d seconds (TOOL-3)", t, questions.MaxTimeoutSec), hint
}

func reserved(name string) bool {
	for _, r := range reservedIDs {
		if name == r {
			return true
		}
	}
	return false
}

// CallIDs returns every call id a scenario can refer to: model calls, the sub-calls of
// its run calls, and the calls of its service asks.
func CallIDs(s *Scenario) map[string]bool {
	out := map[string]bool{}
	ids := ServiceIDs(s)
	for i := range s.Steps {
		st := &s.Steps[i]
		if k := stepKindOf(st); k != nil && k.calls != nil {
			k.calls(st, ids[i], func(id string) { out[id] = true })
		}
	}
	return out
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
	for _, k := range stepKinds {
		if k.is(st) {
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
	kind := stepKindOf(st)
	if st.Session != "" && kind.sessionless {
		v.fail(st.Pos, "session: goes with model, service and client steps", "a %s step is not about one Session", st.Actor())
	}
	kind.validate(v, st)
}

// Refusable reports whether a step reaches a port as an input that can be refused
// (faults and network actions cannot).
func Refusable(st *Step) bool {
	k := stepKindOf(st)
	return k != nil && k.refusable != nil && k.refusable(st)
}

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
		if assertionKeyIndex[n].outcome {
			outcomes++
		}
	}
	if outcomes > 1 && o.oneOutcome {
		v.fail(p, "assert one outcome: pending, answers, error, text, value or none", "a result has one outcome")
	}
	if e.Session != "" {
		v.session(p, e.Session)
	}
	if e.Client != "" {
		v.client(p, e.Client)
	} else if o.perClient && len(v.s.Clients) != 1 {
		if len(v.s.Clients) == 0 {
			v.fail(p, "declare a client under clients:", "a %s expectation needs a client", e.Kind)
		} else {
			v.fail(p, "add client: one of "+v.clientList(), "with several clients a %s expectation names its client", e.Kind)
		}
	}
	o.validate(v, e)
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
