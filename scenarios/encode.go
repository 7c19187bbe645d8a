package scenarios

import (
	"bytes"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// SchemaLine is the comment line that points editors speaking the YAML language server
// protocol at the format's JSON Schema, at path (relative to the file, or a URL). The
// library's files start with SchemaLine("../schema.json").
func SchemaLine(path string) string { return "# yaml-language-server: $schema=" + path }

// Encode writes a scenario in the canonical form of the YAML format: keys in the order of
// the format reference, steps and expectations one per item, actions as flow mappings.
// Decode(Encode(s)) gives back s (positions aside), so generated and shrunk scenarios
// are files a person can read, edit and rerun. Encode does not validate; call Validate.
func Encode(s *Scenario) []byte { return EncodeWithComment(s, "") }

// EncodeWithComment is Encode with a first comment line, such as a SchemaLine ("" for none).
func EncodeWithComment(s *Scenario, comment string) []byte {
	var b bytes.Buffer
	if comment != "" {
		b.WriteString(comment)
		b.WriteByte('\n')
	}
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	// Encoding a tree of plain nodes cannot fail.
	_ = enc.Encode(scenarioNode(s))
	_ = enc.Close()
	return b.Bytes()
}

func str(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
func word(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}
func intNode(v int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10)}
}
func boolNode(v bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
}
func floatNode(v float64) *yaml.Node {
	t := "!!float"
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		t = "!!int"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: t, Value: s}
}
func numNode(raw string) *yaml.Node {
	t := "!!int"
	if _, err := strconv.ParseInt(raw, 10, 64); err != nil {
		t = "!!float"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: t, Value: raw}
}
func null() *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"} }

type mapNode struct{ n *yaml.Node }

func block() *mapNode { return &mapNode{&yaml.Node{Kind: yaml.MappingNode}} }
func flow() *mapNode  { return &mapNode{&yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}} }

func (m *mapNode) add(k string, v *yaml.Node) *mapNode {
	m.n.Content = append(m.n.Content, str(k), v)
	return m
}

func (m *mapNode) empty() bool { return len(m.n.Content) == 0 }

func seq(flowStyle bool, items ...*yaml.Node) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Content: items}
	if flowStyle {
		n.Style = yaml.FlowStyle
	}
	if n.Content == nil {
		n.Content = []*yaml.Node{}
	}
	return n
}

func strs(ss []string) *yaml.Node {
	items := make([]*yaml.Node, len(ss))
	for i, s := range ss {
		items[i] = str(s)
	}
	return seq(true, items...)
}

func dur(d Duration) *yaml.Node { return word(d.String()) }

func scenarioNode(s *Scenario) *yaml.Node {
	m := block()
	m.add("name", str(s.Name))
	m.add("summary", str(s.Summary))
	if len(s.Covers) > 0 {
		m.add("covers", strs(s.Covers))
	}
	if s.Seed != 0 {
		m.add("seed", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(s.Seed, 10)})
	}
	if s.Mode != "" {
		m.add("mode", word(s.Mode))
	}
	if s.Timeout != nil {
		m.add("timeout", intNode(*s.Timeout))
	}
	if s.WriteWindow != nil {
		m.add("write-window", dur(*s.WriteWindow))
	}
	if s.AutoEnd == Never {
		m.add("auto-end", word("never"))
	} else if s.AutoEnd != 0 {
		m.add("auto-end", dur(s.AutoEnd))
	}
	if s.Limit != 0 {
		m.add("limit", dur(s.Limit))
	}
	if len(s.Sessions) > 0 {
		ss := block()
		for _, x := range s.Sessions {
			if x.Owner == "" {
				ss.add(x.Name, null())
			} else {
				ss.add(x.Name, flow().add("owner", str(x.Owner)).n)
			}
		}
		m.add("sessions", ss.n)
	}
	if len(s.Clients) > 0 {
		cs := block()
		for _, c := range s.Clients {
			cs.add(c.Name, clientNode(c))
		}
		m.add("clients", cs.n)
	}
	if len(s.Steps) > 0 {
		items := make([]*yaml.Node, len(s.Steps))
		for i := range s.Steps {
			items[i] = stepNode(&s.Steps[i])
		}
		m.add("steps", seq(false, items...))
	}
	if len(s.Expect) > 0 {
		items := make([]*yaml.Node, len(s.Expect))
		for i := range s.Expect {
			items[i] = expectNode(&s.Expect[i])
		}
		m.add("expect", seq(false, items...))
	}
	if s.Explore != nil {
		m.add("explore", exploreNode(s.Explore))
	}
	return m.n
}

func clientNode(c Client) *yaml.Node {
	m := flow()
	if c.Latency != (Latency{}) {
		m.add("latency", word(c.Latency.String()))
	}
	if c.HTTP != nil {
		m.add("http", word(c.HTTP.String()))
	}
	if c.Skew != 0 {
		m.add("skew", word(c.Skew.Signed()))
	}
	if c.Drift != 0 {
		m.add("drift", word(FormatPPM(c.Drift)))
	}
	if c.Tick != 0 {
		m.add("tick", dur(c.Tick))
	}
	if c.Offline {
		m.add("offline", boolNode(true))
	}
	if c.Hold {
		m.add("hold", boolNode(true))
	}
	if c.Reconnect != nil {
		m.add("reconnect", dur(*c.Reconnect))
	}
	if m.empty() {
		return null()
	}
	return m.n
}

func stepNode(st *Step) *yaml.Node {
	m := block()
	m.add("at", dur(st.At))
	if st.Session != "" {
		m.add("session", str(st.Session))
	}
	if k := stepKindOf(st); k != nil {
		m.add(st.Actor(), k.encode(st))
	}
	if st.Refused != "" {
		m.add("refused", str(st.Refused))
	}
	return m.n
}

func questionsNode(qs []Question) *yaml.Node {
	items := make([]*yaml.Node, len(qs))
	for i, q := range qs {
		m := flow()
		m.add("id", str(q.ID))
		m.add("question", str(q.Question))
		if q.Header != "" {
			m.add("header", str(q.Header))
		}
		if q.Detail != "" {
			m.add("detail", str(q.Detail))
		}
		if len(q.Options) > 0 {
			opts := make([]*yaml.Node, len(q.Options))
			for j, o := range q.Options {
				if o.Description == "" {
					opts[j] = str(o.Label)
				} else {
					opts[j] = flow().add("label", str(o.Label)).add("description", str(o.Description)).n
				}
			}
			m.add("options", seq(true, opts...))
		}
		if q.Multi {
			m.add("multi", boolNode(true))
		}
		if q.PlanReview != "" {
			m.add("plan-review", str(q.PlanReview))
		}
		items[i] = m.n
	}
	return seq(true, items...)
}

func questionsOrRaw(qs []Question, raw string) *yaml.Node {
	if raw != "" {
		return str(raw)
	}
	return questionsNode(qs)
}

func modelNode(a *ModelAction) *yaml.Node {
	switch a.Kind {
	case ModelEndStep, ModelEndTurn:
		return word(a.Kind)
	case ModelHeader:
		if a.Tools == "" {
			return word(ModelHeader)
		}
		return flow().add("header", str(a.Tools)).n
	case ModelCancel:
		if !a.KeepInbox {
			return word(ModelCancel)
		}
		return flow().add("cancel", word("keep-inbox")).n
	case ModelPrompt, ModelSteer:
		m := flow().add(a.Kind, str(a.Text))
		if a.Source.Kind != "" {
			src := flow().add("kind", str(a.Source.Kind))
			if a.Source.Call != "" {
				src.add("call", str(a.Source.Call))
			}
			if a.Source.Outcome != "" {
				src.add("outcome", str(a.Source.Outcome))
			}
			m.add("source", src.n)
		}
		return m.n
	}
	m := flow().add("call", str(a.Call))
	switch a.Kind {
	case ModelAsk:
		m.add("ask", questionsOrRaw(a.Questions, a.Args))
		if a.Timeout != "" {
			m.add("timeout", numNode(a.Timeout))
		}
	case ModelRun:
		if a.Args != "" {
			m.add("run", str(a.Args))
		} else {
			items := make([]*yaml.Node, len(a.Calls))
			for i, c := range a.Calls {
				items[i] = subCallNode(c)
			}
			m.add("run", seq(true, items...))
		}
	case ModelSleep:
		m.add("sleep", dur(a.For))
	case ModelTool:
		m.add("tool", str(a.Name))
		if a.Args != "" {
			m.add("args", str(a.Args))
		}
	}
	return m.n
}

func subCallNode(c SubCall) *yaml.Node {
	m := flow()
	switch c.Kind {
	case SubAsk:
		m.add("ask", questionsOrRaw(c.Questions, c.Args))
		if c.Timeout != "" {
			m.add("timeout", numNode(c.Timeout))
		}
	case SubSleep:
		m.add("sleep", dur(c.For))
	case SubTool:
		m.add("tool", str(c.Name))
		if c.Args != "" {
			m.add("args", str(c.Args))
		}
	}
	return m.n
}

func hostNode(h *HostAction) *yaml.Node {
	switch h.Kind {
	case HostRestart:
		return word(HostRestart)
	case HostCrash:
		if h.Point == "now" && h.Effects == 0 {
			return word(HostCrash)
		}
		m := flow().add("crash", word(h.Point))
		if h.Effects != 0 {
			m.add("effects", intNode(int64(h.Effects)))
		}
		return m.n
	case HostOpen:
		m := flow().add("open", str(h.Session))
		if h.Owner != "" {
			m.add("owner", str(h.Owner))
		}
		if h.Fork != "" {
			m.add("fork", str(h.Fork))
		}
		if h.Through != -1 {
			m.add("through", intNode(int64(h.Through)))
		}
		return m.n
	case HostFailInboxWrite:
		return flow().add(HostFailInboxWrite, str(h.Session)).n
	case HostAppend:
		return flow().add(HostAppend, str(h.Session)).add("event", str(h.Event)).n
	case HostStall:
		return flow().add(HostStall, dur(h.For)).n
	case HostClaimReply:
		return flow().add(HostClaimReply, str(h.Session)).add("call", str(h.Call)).add("turn", intNode(int64(h.Turn))).n
	}
	return flow().add("close", str(h.Session)).n
}

func serviceNode(c *ServiceCall) *yaml.Node {
	m := flow()
	switch c.Kind {
	case ServiceAsk, ServiceAskTimed:
		m.add(c.Kind, questionsOrRaw(c.Questions, c.Body))
	case ServiceAnswer:
		if c.Body != "" {
			m.add("answer", str(c.Body))
		} else {
			m.add("answer", answersNode(c.Answers))
		}
	}
	if c.ID != "" {
		m.add("id", str(c.ID))
	}
	if c.Agent != "" {
		m.add("agent", word(c.Agent))
	}
	switch c.Kind {
	case ServiceAsk:
		if c.Call != "" {
			m.add("wait", str(c.Call))
		}
		if c.Timed {
			m.add("timed", boolNode(true))
		}
	case ServiceAskTimed, ServiceAnswer:
		if c.Call != "" {
			m.add("call", str(c.Call))
		}
	}
	if c.Timeout != nil {
		m.add("timeout", word(c.Timeout.String()))
	}
	if c.Aborted {
		m.add("aborted", boolNode(true))
	}
	return m.n
}

func answersNode(as []AnswerItem) *yaml.Node {
	m := flow()
	for _, a := range as {
		switch {
		case a.Custom == nil && len(a.Selected) == 1:
			m.add(a.ID, str(a.Selected[0]))
		case a.Custom == nil:
			m.add(a.ID, strs(a.Selected))
		default:
			x := flow()
			if len(a.Selected) > 0 {
				x.add("selected", strs(a.Selected))
			}
			x.add("custom", str(*a.Custom))
			m.add(a.ID, x.n)
		}
	}
	return m.n
}

func netNode(a *NetAction) *yaml.Node {
	m := flow().add(a.Kind, str(a.Client))
	switch a.Kind {
	case NetPartition:
		m.add("for", dur(a.For))
	case NetDelay:
		m.add("by", dur(a.By))
	}
	return m.n
}

func userNode(u *UserAction) *yaml.Node {
	switch u.Kind {
	case UserChoose, UserType:
		v := u.Label
		if u.Kind == UserType {
			v = u.Text
		}
		m := flow().add(u.Kind, str(v))
		if u.Question != "" {
			m.add("q", str(u.Question))
		}
		if u.Card != "" {
			m.add("card", str(u.Card))
		}
		return m.n
	case UserClock:
		return flow().add("clock", word(u.By.Signed())).n
	case UserDrift:
		return flow().add("drift", word(FormatPPM(u.PPM))).n
	case UserInput:
		return flow().add("input", str(u.Input)).n
	}
	if u.Card == "" && u.Question == "" {
		return word(u.Kind)
	}
	m := flow()
	if u.Card == "" {
		m.add(u.Kind, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "~"})
	} else {
		m.add(u.Kind, str(u.Card))
	}
	if u.Question != "" {
		m.add("q", str(u.Question))
	}
	return m.n
}

func expectNode(e *Expectation) *yaml.Node {
	m := block()
	if e.End {
		m.add("at", word("end"))
	} else {
		m.add("at", dur(e.At))
	}
	m.add(e.Kind, str(e.Subject))
	e.writeAssertions(m)
	return m.n
}

func exploreNode(x *Explore) *yaml.Node {
	m := block()
	if x.Seeds != 0 {
		m.add("seeds", intNode(int64(x.Seeds)))
	}
	if x.Jitter != 0 {
		m.add("jitter", dur(x.Jitter))
	}
	f := flow()
	for _, r := range []struct {
		k string
		v float64
	}{{"crash", x.Faults.Crash}, {"disconnect", x.Faults.Disconnect}, {"reload", x.Faults.Reload}, {"clock-jump", x.Faults.ClockJump}, {"partition", x.Faults.Partition}, {"lose", x.Faults.Lose}} {
		if r.v != 0 {
			f.add(r.k, floatNode(r.v))
		}
	}
	if !f.empty() {
		m.add("faults", f.n)
	}
	if x.Healed != 0 {
		m.add("healed", dur(x.Healed))
	}
	if m.empty() {
		return &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	}
	return m.n
}
