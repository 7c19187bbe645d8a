package killmatrix

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/scenarios"
)

// Witness is a killed mutant's evidence as a scenario a person can read and rerun: the
// killing seed's scenario, shrunk (explore.Shrink, same first invariant) as long as the
// correct engine still passes the oracle on it, with the steps the mutant refused marked
// refused:.
type Witness struct {
	Mutant    string
	Invariant string
	Seed      uint64
	Shrunk    bool // false: the shrunk case also failed on the correct engine, the seed's own scenario is kept
	Scenario  *scenarios.Scenario
	YAML      []byte
}

// MakeWitness shrinks row's kill. A row that is not a kill is an error.
func MakeWitness(row Row, shrinkTime time.Duration) (*Witness, error) {
	if row.Verdict != KilledByOracle {
		return nil, errors.New(row.Name + " was not killed by the oracle: no witness")
	}
	mr := explore.NewRunner(explore.Options{Mutant: row.Name})
	br := explore.NewRunner(explore.Options{})
	orig := explore.Generate(row.Seed)
	if err := differs(mr, br, orig, row.Invariant); err != nil {
		return nil, errors.New(row.Name + ": seed " + strconv.FormatUint(row.Seed, 10) + ": " + err.Error())
	}
	w := &Witness{Mutant: row.Name, Invariant: row.Invariant, Seed: row.Seed, Scenario: orig}
	small, _ := explore.Shrink(mr, orig, row.Invariant, explore.ShrinkBudget{Deadline: time.Now().Add(shrinkTime)})
	if differs(mr, br, small, row.Invariant) == nil {
		w.Scenario, w.Shrunk = small, true
	}
	s := w.Scenario
	out, _ := mr.Run(s)
	explore.Refusals(s, out.Plan, out.Trace)
	s.Seed = row.Seed
	s.Name = "mutant-" + row.Name
	s.Summary = "mutant " + row.Name + " (seed " + strconv.FormatUint(row.Seed, 10) + ") fails " + row.Invariant + "; the correct engine passes"
	if err := scenarios.Validate(s); err != nil {
		return nil, errors.New(row.Name + ": the witness is not valid: " + err.Error())
	}
	w.YAML = scenarios.EncodeWithComment(s, "# simrun mutants witness: "+row.Name+" is killed by "+row.Invariant+
		"; run with explore.Options{Mutant: \""+row.Name+"\"} (or simrun fuzz --mutant "+row.Name+" --start "+
		strconv.FormatUint(row.Seed, 10)+" --seeds 1) to see the violation, without it to see the oracle pass")
	back, err := scenarios.Decode(s.Name+".yaml", w.YAML)
	if err != nil {
		return nil, errors.New(row.Name + ": the witness YAML does not decode: " + err.Error())
	}
	if err := differs(mr, br, back, row.Invariant); err != nil {
		return nil, errors.New(row.Name + ": the decoded witness: " + err.Error())
	}
	return w, nil
}

// CheckWitness reports why s is not a witness of the mutant: it must fail with invariant
// against the mutant and pass the oracle on the correct engine.
func CheckWitness(name string, s *scenarios.Scenario, invariant string) error {
	return differs(explore.NewRunner(explore.Options{Mutant: name}), explore.NewRunner(explore.Options{}), s, invariant)
}

func differs(mr, br *explore.Runner, s *scenarios.Scenario, invariant string) error {
	out, _ := mr.Run(s)
	if !out.Has(invariant) {
		got := out.Invariant()
		if got == "" {
			got = "no violation"
		}
		return errors.New("the mutant does not violate " + invariant + " (" + got + ")")
	}
	base, _ := br.Run(s)
	if base.Failed() {
		return errors.New("the correct engine fails it too (" + base.Invariant() + ": " + explore.OneLine(base.Message()) + ")")
	}
	return nil
}

// WriteWitness writes w as DIR/<mutant>.yaml with fileio.WriteAtomic (0644, fsynced).
func WriteWitness(dir string, w *Witness) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, w.Mutant+".yaml")
	if err := fileio.WriteAtomic(path, w.YAML); err != nil {
		return "", err
	}
	return path, nil
}
