package explore

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/twosettle/twosettle/scenarios"
)

// ShrinkBudget bounds a shrink: it stops after MaxRuns candidate runs, at Deadline, or
// when Ctx is done, and returns the smallest failing scenario found so far.
type ShrinkBudget struct {
	MaxRuns  int       // 0: DefaultShrinkRuns
	Deadline time.Time // zero: none
	Ctx      context.Context
}

// DefaultShrinkRuns is the candidate budget of a shrink.
const DefaultShrinkRuns = 4000

// ShrinkStats says what a shrink did.
type ShrinkStats struct {
	Runs        int
	StepsBefore int
	StepsAfter  int
	Exhausted   bool // the budget ran out before no candidate was left
}

// Shrink reduces a failing scenario to a smaller one whose first failure is still the
// same invariant (Outcome.Invariant), so the shrunk case shows the bug that was found
// and not an easier one the deletions made: it deletes steps (in halving chunks, then one by one, a call
// together with every step about it), drops clients and Sessions with their steps,
// simplifies steps (questions, options, sub-calls, crash points, timeouts), zeroes
// latencies, skews and drifts, and pulls times earlier (halving gaps and durations), all
// in rounds until no candidate helps. Every candidate passes scenarios.Validate. s is not
// modified.
func Shrink(r *Runner, s *scenarios.Scenario, invariant string, b ShrinkBudget) (*scenarios.Scenario, ShrinkStats) {
	sh := &shrinker{r: r, inv: invariant, b: b, best: clone(s)}
	if sh.b.MaxRuns <= 0 {
		sh.b.MaxRuns = DefaultShrinkRuns
	}
	sh.stats.StepsBefore = len(s.Steps)
	for round := 0; round < 20 && !sh.out(); round++ {
		before := sh.size()
		sh.deleteChunks()
		sh.deleteCalls()
		sh.dropClients()
		sh.dropSessions()
		sh.simplifySteps()
		sh.simplifyConfig()
		sh.pullTimes()
		if sh.size() >= before {
			break
		}
	}
	sh.stats.StepsAfter = len(sh.best.Steps)
	sh.stats.Exhausted = sh.out()
	return sh.best, sh.stats
}

type shrinker struct {
	r     *Runner
	inv   string
	b     ShrinkBudget
	best  *scenarios.Scenario
	stats ShrinkStats
}

func (sh *shrinker) out() bool {
	if sh.stats.Runs >= sh.b.MaxRuns {
		return true
	}
	if !sh.b.Deadline.IsZero() && time.Now().After(sh.b.Deadline) {
		return true
	}
	return sh.b.Ctx != nil && sh.b.Ctx.Err() != nil
}

// size orders scenarios: fewer steps first, then fewer clients and Sessions, then a
// shorter run.
func (sh *shrinker) size() int64 {
	s := sh.best
	return int64(len(s.Steps))<<40 + int64(len(s.Clients)+len(s.Sessions))<<36 + int64(s.Limit)
}

// try runs a candidate and keeps it if it still fails with the invariant.
func (sh *shrinker) try(c *scenarios.Scenario) bool {
	if sh.out() || scenarios.Validate(c) != nil {
		return false
	}
	sh.stats.Runs++
	out, _ := sh.r.Run(c)
	if out.Kind == InvalidScenario || out.Invariant() != sh.inv {
		return false
	}
	sh.best = c
	return true
}

// clone copies a scenario deeply enough that editing the copy's steps, clients and
// their nested values never touches the original.
func clone(s *scenarios.Scenario) *scenarios.Scenario {
	c := *s
	c.Sessions = append([]scenarios.Session(nil), s.Sessions...)
	c.Clients = append([]scenarios.Client(nil), s.Clients...)
	c.Steps = make([]scenarios.Step, len(s.Steps))
	for i, st := range s.Steps {
		c.Steps[i] = cloneStep(st)
	}
	c.Expect = append([]scenarios.Expectation(nil), s.Expect...)
	if s.Explore != nil {
		x := *s.Explore
		c.Explore = &x
	}
	return &c
}

func cloneStep(st scenarios.Step) scenarios.Step {
	if st.Model != nil {
		m := *st.Model
		m.Questions = append([]scenarios.Question(nil), m.Questions...)
		m.Calls = append([]scenarios.SubCall(nil), m.Calls...)
		st.Model = &m
	}
	if st.Host != nil {
		h := *st.Host
		st.Host = &h
	}
	if st.Service != nil {
		v := *st.Service
		v.Questions = append([]scenarios.Question(nil), v.Questions...)
		v.Answers = append([]scenarios.AnswerItem(nil), v.Answers...)
		st.Service = &v
	}
	if st.Net != nil {
		n := *st.Net
		st.Net = &n
	}
	if st.User != nil {
		u := *st.User
		st.User = &u
	}
	return st
}

func without(s *scenarios.Scenario, drop func(i int, st *scenarios.Step) bool) *scenarios.Scenario {
	c := clone(s)
	c.Steps = c.Steps[:0]
	for i := range s.Steps {
		if !drop(i, &s.Steps[i]) {
			c.Steps = append(c.Steps, cloneStep(s.Steps[i]))
		}
	}
	return c
}

// deleteChunks removes runs of consecutive steps, from half the script down to single
// steps (the ddmin complement pass).
func (sh *shrinker) deleteChunks() {
	for n := len(sh.best.Steps) / 2; n >= 1 && !sh.out(); n /= 2 {
		for start := 0; start < len(sh.best.Steps) && !sh.out(); {
			lo, hi := start, min(start+n, len(sh.best.Steps))
			if !sh.try(without(sh.best, func(i int, _ *scenarios.Step) bool { return i >= lo && i < hi })) {
				start += n
			}
		}
	}
}

// deleteCalls removes a model call together with every step that names it (cards, late
// answers), which deleting one step at a time cannot do (the card would be unknown).
func (sh *shrinker) deleteCalls() {
	for i := 0; i < len(sh.best.Steps) && !sh.out(); i++ {
		st := sh.best.Steps[i]
		if st.Model == nil || st.Model.Call == "" {
			continue
		}
		call := st.Model.Call
		if sh.try(without(sh.best, func(j int, x *scenarios.Step) bool { return j == i || namesCall(x, call) })) {
			i--
		}
	}
}

func namesCall(st *scenarios.Step, call string) bool {
	card := ""
	switch {
	case st.User != nil:
		card = st.User.Card
	case st.Service != nil:
		card = st.Service.Call
	}
	return card == call || strings.HasPrefix(card, call+":ptc:")
}

func (sh *shrinker) dropClients() {
	for i := 0; i < len(sh.best.Clients) && !sh.out(); i++ {
		name := sh.best.Clients[i].Name
		c := without(sh.best, func(_ int, st *scenarios.Step) bool {
			return st.Client == name || (st.Net != nil && st.Net.Client == name)
		})
		c.Clients = append(c.Clients[:i:i], c.Clients[i+1:]...)
		if sh.try(c) {
			i--
		}
	}
}

func (sh *shrinker) dropSessions() {
	for i := len(sh.best.Sessions) - 1; i >= 0 && !sh.out(); i-- {
		if i >= len(sh.best.Sessions) {
			continue
		}
		name := sh.best.Sessions[i].Name
		if name == scenarios.DefaultSession && i == 0 {
			continue
		}
		c := without(sh.best, func(_ int, st *scenarios.Step) bool {
			return st.Session == name || (st.Host != nil && st.Host.Session == name)
		})
		c.Sessions = append(c.Sessions[:i:i], c.Sessions[i+1:]...)
		if len(c.Sessions) == 1 && c.Sessions[0].Name == scenarios.DefaultSession && c.Sessions[0].Owner == "" {
			c.Sessions = nil
		}
		sh.try(c)
	}
}

// edit tries f on a copy of step i; f reports whether it changed anything.
func (sh *shrinker) edit(i int, f func(st *scenarios.Step) bool) bool {
	c := clone(sh.best)
	if !f(&c.Steps[i]) {
		return false
	}
	return sh.try(c)
}

func (sh *shrinker) simplifySteps() {
	for i := 0; i < len(sh.best.Steps) && !sh.out(); i++ {
		st := sh.best.Steps[i]
		switch {
		case st.Model != nil:
			sh.simplifyModel(i)
		case st.Host != nil && st.Host.Kind == scenarios.HostCrash:
			sh.edit(i, func(x *scenarios.Step) bool {
				if x.Host.Point == "now" {
					return false
				}
				x.Host.Point, x.Host.Effects = "now", 0
				return true
			})
			sh.edit(i, func(x *scenarios.Step) bool {
				if x.Host.Effects == 0 {
					return false
				}
				x.Host.Effects /= 2
				return true
			})
		case st.Net != nil:
			for sh.edit(i, func(x *scenarios.Step) bool { return halve(&x.Net.For, 1) || halve(&x.Net.By, 1) }) {
			}
		case st.User != nil:
			switch st.User.Kind {
			case scenarios.UserClock:
				for sh.edit(i, func(x *scenarios.Step) bool { return halve(&x.User.By, 1) }) {
				}
			case scenarios.UserDrift:
				for sh.edit(i, func(x *scenarios.Step) bool {
					if x.User.PPM/2 == 0 || x.User.PPM == 0 {
						return false
					}
					x.User.PPM /= 2
					return true
				}) {
				}
			case scenarios.UserType:
				sh.edit(i, func(x *scenarios.Step) bool {
					if x.User.Text == "x" {
						return false
					}
					x.User.Text = "x"
					return true
				})
			}
			sh.edit(i, func(x *scenarios.Step) bool {
				if x.User.Card == "" || strings.HasPrefix(x.User.Card, "#") {
					return false
				}
				x.User.Card = ""
				return true
			})
		case st.Service != nil:
			sh.edit(i, func(x *scenarios.Step) bool {
				if len(x.Service.Questions) <= 1 {
					return false
				}
				x.Service.Questions = x.Service.Questions[:1]
				return true
			})
		}
	}
}

func (sh *shrinker) simplifyModel(i int) {
	m := sh.best.Steps[i].Model
	switch m.Kind {
	case scenarios.ModelAsk:
		sh.simplifyQuestions(i, func(x *scenarios.Step) *[]scenarios.Question { return &x.Model.Questions })
		sh.simplifyTimeout(i, func(x *scenarios.Step) *string { return &x.Model.Timeout })
	case scenarios.ModelRun:
		for j := len(m.Calls) - 1; j >= 0 && !sh.out(); j-- {
			sh.edit(i, func(x *scenarios.Step) bool {
				if j >= len(x.Model.Calls) || len(x.Model.Calls) == 1 {
					return false
				}
				x.Model.Calls = append(x.Model.Calls[:j:j], x.Model.Calls[j+1:]...)
				return true
			})
		}
		for j := range sh.best.Steps[i].Model.Calls {
			if sh.best.Steps[i].Model.Calls[j].Kind != scenarios.SubAsk {
				continue
			}
			sh.simplifyQuestions(i, func(x *scenarios.Step) *[]scenarios.Question { return &x.Model.Calls[j].Questions })
			sh.simplifyTimeout(i, func(x *scenarios.Step) *string { return &x.Model.Calls[j].Timeout })
		}
	case scenarios.ModelSleep:
		for sh.edit(i, func(x *scenarios.Step) bool { return halve(&x.Model.For, 10) }) {
		}
	case scenarios.ModelCancel:
		sh.edit(i, func(x *scenarios.Step) bool {
			if !x.Model.KeepInbox {
				return false
			}
			x.Model.KeepInbox = false
			return true
		})
	}
}

func (sh *shrinker) simplifyQuestions(i int, qs func(*scenarios.Step) *[]scenarios.Question) {
	sh.edit(i, func(x *scenarios.Step) bool {
		q := qs(x)
		if len(*q) <= 1 {
			return false
		}
		*q = (*q)[:1]
		return true
	})
	sh.edit(i, func(x *scenarios.Step) bool {
		q := qs(x)
		changed := false
		out := make([]scenarios.Question, len(*q))
		for k, v := range *q {
			if len(v.Options) > 2 {
				v.Options, changed = v.Options[:2:2], true
			}
			if v.Multi || v.Header != "" {
				v.Multi, v.Header, changed = false, "", true
			}
			out[k] = v
		}
		*q = out
		return changed
	})
}

func (sh *shrinker) simplifyTimeout(i int, to func(*scenarios.Step) *string) {
	for sh.edit(i, func(x *scenarios.Step) bool {
		p := to(x)
		n, err := strconv.Atoi(*p)
		if err != nil || n <= 1 {
			return false
		}
		*p = strconv.Itoa(n / 2)
		return true
	}) {
	}
}

func halve(d *scenarios.Duration, floor scenarios.Duration) bool {
	if *d <= floor {
		return false
	}
	*d = max(floor, *d/2)
	return true
}

func (sh *shrinker) simplifyConfig() {
	for i := range sh.best.Clients {
		if sh.out() {
			return
		}
		edits := []func(c *scenarios.Client) bool{
			func(c *scenarios.Client) bool {
				ch := c.Latency != (scenarios.Latency{})
				c.Latency = scenarios.Latency{}
				return ch
			},
			func(c *scenarios.Client) bool { ch := c.HTTP != nil; c.HTTP = nil; return ch },
			func(c *scenarios.Client) bool { ch := c.Skew != 0; c.Skew = 0; return ch },
			func(c *scenarios.Client) bool { ch := c.Drift != 0; c.Drift = 0; return ch },
			func(c *scenarios.Client) bool { ch := c.Tick != 0; c.Tick = 0; return ch },
			func(c *scenarios.Client) bool {
				ch := c.Latency.Max > c.Latency.Min
				c.Latency.Max = c.Latency.Min
				return ch
			},
		}
		for _, e := range edits {
			c := clone(sh.best)
			if e(&c.Clients[i]) {
				sh.try(c)
			}
		}
	}
	if sh.best.WriteWindow != nil {
		c := clone(sh.best)
		c.WriteWindow = nil
		sh.try(c)
	}
	// a shorter run: the limit down towards the last step
	last := scenarios.Duration(0)
	if n := len(sh.best.Steps); n > 0 {
		last = sh.best.Steps[n-1].At
	}
	for sh.best.Limit > last+100 && !sh.out() {
		c := clone(sh.best)
		c.Limit = last + (sh.best.Limit-last)/2
		if !sh.try(c) {
			break
		}
	}
}

// pullTimes makes the script shorter in time: every time halved at once, then each gap
// between consecutive step times halved.
func (sh *shrinker) pullTimes() {
	c := clone(sh.best)
	changed := false
	for i := range c.Steps {
		if c.Steps[i].At > 0 {
			c.Steps[i].At /= 2
			changed = true
		}
	}
	if changed {
		c.Limit = (c.Limit + 1) / 2
		sh.try(c)
	}
	for i := 1; i < len(sh.best.Steps) && !sh.out(); i++ {
		for {
			gap := sh.best.Steps[i].At - sh.best.Steps[i-1].At
			if gap <= 0 {
				break
			}
			c := clone(sh.best)
			d := gap - gap/2
			for j := i; j < len(c.Steps); j++ {
				c.Steps[j].At -= d
			}
			if !sh.try(c) {
				break
			}
		}
	}
}
