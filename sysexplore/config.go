package sysexplore

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/sim"
)

// A configuration file is YAML:
//
//	world:        # a scenario (the scenario format, docs/ARCHITECTURE.md §4): clients,
//	  mode: timed # mode, timeout, and the steps that happen at fixed times (the model
//	  ...         # asking its questions)
//	place:        # steps the explorer places, each at most once, anywhere in the run
//	  - {a: focus}            # a user action, in the scenario step syntax (no at:)
//	  - {a: {choose: npm}}
//	  - {a: submit}
//	  - {net: {disconnect: b}}          # a fault
//	  - {host: {crash: before-answer-ack}}
//	max-faults: 1 # at most this many fault steps placed in one run (0: no limit)
//	depth: 40     # default --depth
//
// A place step is a fault when it is a network action, a host step (a crash) or a
// client's reload, crash, clock jump or drift; the others are user actions. The steps that
// build and send one client's answer (type, choose, skip, next, prev, submit) are placed
// in the order listed (choose before submit); the other user actions (focus, take-time,
// delegate = pass, teardown, hide, …) and the faults in any order.

//go:embed configs/*.yaml
var builtin embed.FS

// Builtin lists the configurations built into simrun (simrun explore NAME).
func Builtin() []string {
	es, _ := builtin.ReadDir("configs")
	var out []string
	for _, e := range es {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// Config is one explorable world.
type Config struct {
	Name string
	// Scenario is the world with every place step appended (at the time of its last
	// fixed step); Base is the number of its fixed steps (Scenario.Steps[Base:] are the
	// place steps, in the order listed).
	Scenario *scenarios.Scenario
	Base     int
	// MaxFaults bounds the fault steps placed in one run (0: none).
	MaxFaults int
	// Depth is the default depth bound (0: the command's default).
	Depth int

	plan   *harness.Plan
	fixed  []sim.Step
	places []place
}

// place is one step the explorer may place.
type place struct {
	step  sim.Step
	fault bool
	actor string // "" for a fault: no order
	after int    // the index of the place step that must be placed first (-1 none)
	text  string // the step as listed, for reports
}

type fileConfig struct {
	World     yaml.Node   `yaml:"world"`
	Place     []yaml.Node `yaml:"place"`
	MaxFaults int         `yaml:"max-faults"`
	Depth     int         `yaml:"depth"`
}

// Load reads a configuration: a file path, or the name of a built-in one.
func Load(nameOrPath string) (*Config, error) {
	data, err := os.ReadFile(nameOrPath)
	name := strings.TrimSuffix(filepath.Base(nameOrPath), filepath.Ext(nameOrPath))
	if err != nil {
		b, berr := builtin.ReadFile("configs/" + nameOrPath + ".yaml")
		if berr != nil {
			return nil, fmt.Errorf("%v (and no built-in configuration %q: %s)", err, nameOrPath, strings.Join(Builtin(), ", "))
		}
		data, name = b, nameOrPath
	}
	return Parse(name, data)
}

// Parse reads a configuration's YAML.
func Parse(name string, data []byte) (*Config, error) {
	var fc fileConfig
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&fc); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if fc.World.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: world: a scenario mapping is required", name)
	}
	if mapValue(&fc.World, "summary") == nil {
		setKey(&fc.World, "summary", "the world of the exploration configuration "+name)
	}
	if mapValue(&fc.World, "name") == nil {
		setKey(&fc.World, "name", "explore-"+name)
	}
	world, err := yaml.Marshal(&fc.World)
	if err != nil {
		return nil, err
	}
	base, err := scenarios.Decode(name+" (world)", world)
	if err != nil {
		return nil, err
	}
	var last scenarios.Duration
	for _, st := range base.Steps {
		if st.At > last {
			last = st.At
		}
	}
	steps := mapValue(&fc.World, "steps")
	if steps == nil {
		return nil, fmt.Errorf("%s: world: no steps", name)
	}
	var texts []string
	for i := range fc.Place {
		p := fc.Place[i]
		if p.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%s: place %d: a step mapping is required", name, i+1)
		}
		if mapValue(&p, "at") != nil {
			return nil, fmt.Errorf("%s: place %d: no at: (the explorer places it)", name, i+1)
		}
		q := p
		q.Style = yaml.FlowStyle
		t, _ := yaml.Marshal(&q)
		texts = append(texts, strings.TrimSpace(string(t)))
		setKey(&p, "at", last.String())
		steps.Content = append(steps.Content, &p)
	}
	full, err := yaml.Marshal(&fc.World)
	if err != nil {
		return nil, err
	}
	s, err := scenarios.Decode(name+".yaml", full)
	if err != nil {
		return nil, err
	}
	c := &Config{Name: name, Scenario: s, Base: len(base.Steps), MaxFaults: fc.MaxFaults, Depth: fc.Depth}
	if err := c.compile(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	for i := range c.places {
		c.places[i].text = texts[i]
	}
	return c, nil
}

// compile splits the world's simulator steps into the fixed ones and the places.
func (c *Config) compile() error {
	c.plan = harness.Compile(c.Scenario, 0)
	byOrigin := map[int]int{}
	c.fixed = nil
	c.places = make([]place, len(c.Scenario.Steps)-c.Base)
	for i := range c.places {
		c.places[i].after = -1
	}
	for i, st := range c.plan.Sim.Steps {
		o := c.plan.Origin[i]
		if o < c.Base {
			c.fixed = append(c.fixed, st)
			continue
		}
		if _, dup := byOrigin[o]; dup {
			return fmt.Errorf("place %d compiles to more than one simulator step", o-c.Base+1)
		}
		byOrigin[o] = i
		c.places[o-c.Base].step = st
	}
	lastOf := map[string]int{}
	for i := range c.places {
		ss := &c.Scenario.Steps[c.Base+i]
		if _, ok := byOrigin[c.Base+i]; !ok {
			return fmt.Errorf("place %d compiles to no simulator step", i+1)
		}
		p := &c.places[i]
		p.fault = isFault(ss)
		if !p.fault && isAnswerStep(ss) {
			p.actor = ss.Actor()
			if j, ok := lastOf[p.actor]; ok {
				p.after = j
			}
			lastOf[p.actor] = i
		}
	}
	c.plan.Sim.Steps = c.fixed
	return nil
}

// Places is how many steps the explorer may place.
func (c *Config) Places() int { return len(c.places) }

// isAnswerStep reports whether a user step builds or sends an answer (placed in order).
func isAnswerStep(st *scenarios.Step) bool {
	if st.User == nil {
		return false
	}
	switch st.User.Kind {
	case scenarios.UserType, scenarios.UserChoose, scenarios.UserSkip, scenarios.UserNext, scenarios.UserPrev, scenarios.UserSubmit:
		return true
	}
	return false
}

// isFault reports whether a scenario step is a fault rather than a user action.
func isFault(st *scenarios.Step) bool {
	switch {
	case st.Net != nil, st.Host != nil:
		return true
	case st.User != nil:
		switch st.User.Kind {
		case scenarios.UserReload, scenarios.UserCrash, scenarios.UserClock, scenarios.UserDrift:
			return true
		}
	}
	return false
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func setKey(m *yaml.Node, key, value string) {
	if v := mapValue(m, key); v != nil {
		v.Kind, v.Tag, v.Value, v.Content = yaml.ScalarNode, "!!str", value, nil
		return
	}
	m.Content = append([]*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: key},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: value},
	}, m.Content...)
}

var errNondeterministic = errors.New("sysexplore: a replayed prefix took another path: the engine or the simulator is not deterministic")
