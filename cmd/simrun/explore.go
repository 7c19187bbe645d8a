package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/twosettle/twosettle/conform"
	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/sysexplore"
)

func init() {
	commands["explore"] = command{"enumerate every schedule and step placement of a small world (a built-in name or a YAML file) to a depth, on the real engine, against the oracle", exploreMain}
}

// exploreJSON is the --json report.
type exploreJSON struct {
	Config     string                 `json:"config"`
	Depth      int                    `json:"depth"`
	Deviations int                    `json:"deviations"`
	Dedup      bool                   `json:"dedup"`
	Mutant     string                 `json:"mutant,omitempty"`
	Stats      sysexplore.Stats       `json:"stats"`
	Violations []sysexplore.Violation `json:"violations"`
	Witnesses  []sysexplore.Witness   `json:"witnesses"`
	Situations []string               `json:"situations"`
	Unreached  []string               `json:"unreached"`
	Cut        bool                   `json:"interrupted"`
	Random     int                    `json:"random_walks,omitempty"`
}

// exploreMain is `simrun explore CONFIG [--depth N] [--deviations K] [--budget D]
// [--mutant NAME] [--json] [--out DIR] [--no-shrink] [--no-dedup] [--keep-going]
// [--path P] [--host CMD]`.
func exploreMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simrun explore", flag.ContinueOnError)
	depth := fs.Int("depth", 0, "branch on the first N decisions of each run (default: the configuration's, else 40; -1: no bound, the whole state space)")
	devs := fs.Int("deviations", 0, "at most K non-default choices in a run (0: no bound)")
	budget := fs.Duration("budget", 0, "stop after this much wall time (0: none); the report says the search was cut short")
	mutant := fs.String("mutant", "", "explore the reference engine with this named bug switched on")
	asJSON := fs.Bool("json", false, "print one JSON object: stats, violations, witnesses, situations")
	out := fs.String("out", "explore-failures", "the directory violations are written to (YAML + transcript)")
	noShrink := fs.Bool("no-shrink", false, "write a violation's scenario as found, without shrinking")
	noDedup := fs.Bool("no-dedup", false, "explore a state again each time it is reached (no state hashing)")
	keepGoing := fs.Bool("keep-going", false, "search on after the first violation")
	pathF := fs.String("path", "", "replay one path (comma-separated choices, as a violation reports it): print its transcript and verdict")
	seeds := fs.Int("replay-seeds", 5000, "seeds tried to make a violation a scenario that reproduces it")
	random := fs.Int("random", 0, "instead of the search, run N random walks over the same world (a swarm, for comparison)")
	hostCmd := hostFlag(fs)
	rest, ok := parse(fs, args, stderr)
	if !ok {
		return 2
	}
	if len(rest) != 1 {
		fmt.Fprintf(stderr, "simrun explore: name one configuration: a YAML file or one of %s\n", strings.Join(sysexplore.Builtin(), ", "))
		return 2
	}
	if *depth < -1 || *devs < 0 || *budget < 0 || *seeds < 1 {
		fmt.Fprintln(stderr, "simrun explore: --depth is -1 or more, --deviations and --budget cannot be negative, --replay-seeds is at least 1")
		return 2
	}
	if *mutant != "" && !knownMutant("simrun explore", *mutant, stderr) {
		return 2
	}
	cfg, err := sysexplore.Load(rest[0])
	if err != nil {
		fmt.Fprintf(stderr, "simrun explore: %v\n", err)
		return 2
	}
	if err := fileio.CheckDir(*out); err != nil && *pathF == "" {
		fmt.Fprintf(stderr, "simrun explore: --out: %v\n", err)
		return 2
	}
	hosts, features, closeHost, ok := openHostFeatures("simrun explore", *hostCmd, stderr)
	if !ok {
		return 2
	}
	defer closeHost()
	opts := sysexplore.Options{Random: *random, Depth: *depth, Deviations: *devs, NoDedup: *noDedup, KeepGoing: *keepGoing,
		Explore: explore.Options{Mutant: *mutant, Host: hosts, ReplayHost: replayHost(*hostCmd)}}
	if hosts != nil {
		_, opts.Explore.Skip = conform.FuzzGen(conform.RoleHost, features)
		if !slices.Contains(features, conform.FeatureIntrospection) && !*noDedup {
			// without introspection the host's state text is not all of its state: hashing
			// it would merge states that differ
			fmt.Fprintln(stderr, "simrun explore: the host declares no introspection: states are not hashed (--no-dedup)")
			opts.NoDedup = true
		}
	}
	if *pathF != "" {
		path, err := sysexplore.ParsePath(*pathF)
		if err != nil {
			fmt.Fprintf(stderr, "simrun explore: %v\n", err)
			return 2
		}
		tr, v, placed, err := sysexplore.Replay(cfg, path, opts)
		if err != nil {
			fmt.Fprintf(stderr, "simrun explore: %v\n", err)
			return 2
		}
		fmt.Fprint(stdout, tr.Text())
		for _, p := range placed {
			fmt.Fprintf(stdout, "placed %s at %dms\n", p.Step, p.At)
		}
		if v != nil {
			fmt.Fprintf(stdout, "FAIL %s\n", v.Message)
			return 1
		}
		fmt.Fprintln(stdout, "oracle: pass")
		return 0
	}
	sigCtx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx := sigCtx
	if *budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *budget)
		defer cancel()
	}
	opts.Ctx = ctx
	opts.Progress = func(s sysexplore.Stats) {
		fmt.Fprintf(stderr, "explore %s: %.0fs %d schedules, %d pruned, %d states, %d transitions, depth %d\n",
			cfg.Name, s.Seconds, s.Runs, s.Pruned, s.States, s.Transitions, s.MaxDepth)
	}
	res, err := sysexplore.Search(cfg, opts)
	if err != nil {
		fmt.Fprintf(stderr, "simrun explore: %v\n", err)
		return 1
	}
	depthUsed := sysexplore.EffectiveDepth(cfg, opts.Depth)
	if depthUsed == sysexplore.Unbounded {
		depthUsed = -1
	}
	rep := exploreJSON{Config: cfg.Name, Depth: depthUsed, Deviations: *devs, Dedup: !opts.NoDedup, Mutant: *mutant, Random: *random,
		Stats: res.Stats, Violations: res.Violations, Situations: res.Reached.Names(), Cut: !res.Exhausted && len(res.Violations) == 0}
	if rep.Violations == nil {
		rep.Violations = []sysexplore.Violation{}
	}
	rep.Witnesses = []sysexplore.Witness{}
	for _, s := range explore.Situations() {
		if !slices.Contains(rep.Situations, s.Name) {
			rep.Unreached = append(rep.Unreached, s.Name)
		}
	}
	for i := range res.Violations {
		v := &res.Violations[i]
		sb := explore.ShrinkBudget{Deadline: time.Now().Add(30 * time.Second), Ctx: ctx}
		w := cfg.Reproduce(v, opts.Explore, *out, *seeds, *noShrink, sb)
		rep.Witnesses = append(rep.Witnesses, w)
	}
	if *asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(stdout, string(b))
	} else {
		s := res.Stats
		how := "exhausted"
		if !res.Exhausted {
			how = "cut short"
			if len(res.Violations) > 0 && !*keepGoing {
				how = "stopped at the first violation"
			}
		}
		dd := "on"
		if opts.NoDedup {
			dd = "off"
		}
		if *random > 0 {
			how = "random walks"
			dd = "off"
		}
		fmt.Fprintf(stdout, "explore %s: depth %d, deviations %d, dedup %s: %s\n", cfg.Name, depthUsed, *devs, dd, how)
		fmt.Fprintf(stdout, "  %d schedules, %d pruned at known states, %d states, %d transitions, %d decisions branched, %d cut by the bound, deepest run %d decisions, %.2fs\n",
			s.Runs, s.Pruned, s.States, s.Transitions, s.Decisions, s.Cut, s.MaxDepth, s.Seconds)
		fmt.Fprintf(stdout, "  %d situations reached (%d not)\n", len(rep.Situations), len(rep.Unreached))
		for i, v := range res.Violations {
			fmt.Fprintf(stdout, "FAIL %s (run %d, depth %d)\n  path: %s\n", v.Message, v.Run, v.Depth, v.Path)
			for _, p := range v.Placed {
				fmt.Fprintf(stdout, "  placed %s at %dms\n", p.Step, p.At)
			}
			w := rep.Witnesses[i]
			switch {
			case w.Err != "":
				fmt.Fprintf(stdout, "  no scenario: %s\n", w.Err)
			case w.File != "":
				fmt.Fprintf(stdout, "  wrote %s (seed %d, %d steps, shrunk %v)\n  replay: %s\n", w.File, w.Seed, w.Steps, w.Shrunk, w.Replay)
			}
			fmt.Fprintf(stdout, "  exact path: simrun explore %s --path %s", rest[0], v.Path)
			if *mutant != "" {
				fmt.Fprintf(stdout, " --mutant %s", *mutant)
			}
			if *hostCmd != "" {
				fmt.Fprintf(stdout, " --host %s", replayHost(*hostCmd))
			}
			fmt.Fprintln(stdout)
		}
	}
	if len(res.Violations) > 0 {
		return 1
	}
	if sigCtx.Err() != nil && !res.Exhausted {
		return 130 // interrupted (a --budget that runs out is not a failure: the report says "cut short")
	}
	return 0
}
