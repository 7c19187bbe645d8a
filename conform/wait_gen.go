package conform

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// GenerateWaitScript is the seeded generator of wait scripts: the same seed and grid give
// the same script. It creates waits (some under a shared parent), attaches claim streams
// (some cancelled, some to waits that do not exist), pulls, returns and cancels them,
// aborts parents, closes waits (sometimes twice), and moves time in small steps, onto and
// next to deadlines, and in jumps far past them; it ends with time past every deadline.
//
// grid 0 is for virtual time: any millisecond. grid > 0 is for real-time mode: every step
// is at a multiple of grid and every timeout is a multiple of grid plus grid/2, so no step
// lands within grid/2 of a deadline (real timers are not exact; the tolerance must be
// under grid/2).
func GenerateWaitScript(seed uint64, grid int64) WaitScript {
	rng := rand.New(rand.NewPCG(seed, 0x7761697473))
	g := &waitGen{rng: rng, grid: grid, deadline: map[string]int64{}}
	n := 4 + rng.IntN(24)
	if grid > 0 {
		n = 4 + rng.IntN(5)
	}
	g.create()
	for len(g.steps) < n {
		g.tick()
		switch x := rng.IntN(100); {
		case x < 16:
			g.create()
		case x < 34:
			g.attach()
		case x < 56:
			g.pull()
		case x < 70:
			g.claimOp(WaitOpReturn)
		case x < 76:
			g.claimOp(WaitOpCancel)
		case x < 81:
			g.abort()
		case x < 88:
			g.close()
		default:
			g.add(WaitStep{Op: WaitOpAdvance})
		}
	}
	end := g.now
	for _, d := range g.deadline {
		end = max(end, d)
	}
	if grid > 0 {
		end = (end/grid + 1) * grid
	} else {
		end++
	}
	g.steps = append(g.steps, WaitStep{Now: end, Op: WaitOpAdvance})
	return WaitScript{Name: fmt.Sprintf("wait seed %d", seed), Seed: seed, Source: "generated", Steps: g.steps}
}

type waitGen struct {
	rng      *rand.Rand
	grid     int64
	now      int64
	steps    []WaitStep
	waits    []string
	parents  []string
	claims   []string // attached, in order
	pulled   map[string]bool
	deadline map[string]int64
}

func (g *waitGen) add(s WaitStep) {
	s.Now = g.now
	g.steps = append(g.steps, s)
}

// tick moves time before a step.
func (g *waitGen) tick() {
	r := g.rng
	if g.grid > 0 {
		g.now += int64(r.IntN(3)) * g.grid
		return
	}
	switch x := r.IntN(100); {
	case x < 30: // same time
	case x < 60:
		g.now += 1 + int64(r.IntN(2000))
	case x < 85 && len(g.deadline) > 0: // onto a deadline, or one either side of it
		var ds []int64
		for _, w := range g.waits {
			if d := g.deadline[w]; d >= g.now {
				ds = append(ds, d)
			}
		}
		if len(ds) > 0 {
			d := ds[r.IntN(len(ds))] + int64(r.IntN(3)) - 1
			g.now = max(g.now, d)
		}
	default: // a jump
		g.now += 5000 + int64(r.IntN(60000))
	}
}

func (g *waitGen) create() {
	r := g.rng
	name := fmt.Sprintf("w%d", len(g.waits)+1)
	var timeout int64
	if g.grid > 0 {
		timeout = int64(1+r.IntN(4))*g.grid + g.grid/2
	} else if r.IntN(5) == 0 {
		timeout = 1 + int64(r.IntN(3))
	} else {
		timeout = 1 + int64(r.IntN(10000))
	}
	s := WaitStep{Op: WaitOpCreate, Wait: name, TimeoutMs: timeout}
	if r.IntN(2) == 0 {
		if len(g.parents) == 0 || r.IntN(3) == 0 {
			g.parents = append(g.parents, fmt.Sprintf("p%d", len(g.parents)+1))
		}
		s.Parent = g.parents[r.IntN(len(g.parents))]
	}
	g.waits = append(g.waits, name)
	g.deadline[name] = g.now + timeout
	g.add(s)
}

func (g *waitGen) attach() {
	r := g.rng
	if g.pulled == nil {
		g.pulled = map[string]bool{}
	}
	name := fmt.Sprintf("k%d", len(g.claims)+1)
	wait := "w-unknown"
	if len(g.waits) > 0 && r.IntN(12) > 0 {
		wait = g.waits[r.IntN(len(g.waits))]
	}
	g.claims = append(g.claims, name)
	g.add(WaitStep{Op: WaitOpAttach, Claim: name, Wait: wait, Cancelled: r.IntN(8) == 0})
	if r.IntN(3) > 0 { // usually pulled at once, as a client does
		g.add(WaitStep{Op: WaitOpPull, Claim: name})
		g.pulled[name] = true
	}
}

func (g *waitGen) pull() {
	if len(g.claims) == 0 {
		g.attach()
		return
	}
	var fresh []string
	for _, c := range g.claims {
		if !g.pulled[c] {
			fresh = append(fresh, c)
		}
	}
	c := g.claims[g.rng.IntN(len(g.claims))] // a second pull is fine: it must yield nothing
	if len(fresh) > 0 && g.rng.IntN(4) > 0 {
		c = fresh[g.rng.IntN(len(fresh))]
	}
	g.pulled[c] = true
	g.add(WaitStep{Op: WaitOpPull, Claim: c})
}

func (g *waitGen) claimOp(op string) {
	if len(g.claims) == 0 {
		g.attach()
		return
	}
	g.add(WaitStep{Op: op, Claim: g.claims[g.rng.IntN(len(g.claims))]})
}

var waitReasons = []string{"TURN_ABORTED", "ASK_ABORTED", "USER_STOPPED"}

func (g *waitGen) abort() {
	if len(g.parents) == 0 {
		g.create()
		return
	}
	g.add(WaitStep{Op: WaitOpAbort, Parent: g.parents[g.rng.IntN(len(g.parents))], Reason: waitReasons[g.rng.IntN(len(waitReasons))]})
}

func (g *waitGen) close() {
	if len(g.waits) == 0 {
		g.create()
		return
	}
	g.add(WaitStep{Op: WaitOpClose, Wait: g.waits[g.rng.IntN(len(g.waits))], Reason: "ASK_ABORTED"})
}

// writeWaitScript writes steps as a script file in dir, named after the script, with a
// comment saying where it came from; it returns the file's path.
func writeWaitScript(dir string, sc WaitScript, steps []WaitStep) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, sc.Name)
	if !strings.HasPrefix(name, "wait-") {
		name = "wait-" + name
	}
	path := filepath.Join(dir, name+".jsonl")
	var b strings.Builder
	fmt.Fprintf(&b, "# wait script %q (%s), %d of its %d steps\n", sc.Name, sc.Source, len(steps), len(sc.Steps))
	for _, s := range steps {
		b.WriteString(s.String() + "\n")
	}
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}
