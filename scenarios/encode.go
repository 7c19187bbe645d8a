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
