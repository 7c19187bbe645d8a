package oracle_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/trace"
)

// libraryTrace runs one library scenario and returns its trace.
func libraryTrace(t *testing.T, name string) *trace.Trace {
	t.Helper()
	root, _ := filepath.Abs("..")
	for _, e := range harness.Library(root) {
		if strings.TrimSuffix(filepath.Base(e.Path), ".yaml") == name {
			r := harness.RunEntry(e, harness.DefaultOptions())
			if r.Trace == nil || r.Status() != harness.Passed {
				t.Fatalf("%s: %s %v %v", name, r.Line(), r.Invalid, r.Failures)
			}
			return r.Trace
		}
	}
	t.Fatalf("no library scenario %s", name)
	return nil
}

// What a scenario wrote or held back is not the host's doing: the oracle passes these runs,
// and the same records without what marks them as the scenario's are violations.
func TestScriptedHistoryAndStallsAreNotTheHosts(t *testing.T) {
	t.Run("PROJ-6 PROJ-7 events written by append-event are folded, not checked", func(t *testing.T) {
		tr := libraryTrace(t, "proj-recorded-results-written-by-hand")
		if v := oracle.Check(tr, oracle.Options{}); v.Status != oracle.OK {
			t.Fatalf("the run: %s", v)
		}
		// The same appends in Applies of a tick: the host's own, unpaired calls and results.
		bad := *tr
		bad.Records = append([]trace.Record(nil), tr.Records...)
		n := 0
		for i, r := range bad.Records {
			if _, ok := r.Payload.(wire.AppendEvent); ok && r.Kind == trace.In {
				bad.Records[i].Payload = wire.Tick{}
				n++
			}
		}
		if n == 0 {
			t.Fatal("the run has no append-event")
		}
		if v := oracle.Check(&bad, oracle.Options{}); v.Status != oracle.Violation {
			t.Fatalf("host-written: %s", v)
		}
	})
	t.Run("WAIT-1 a wait expiring late after a host stall is the runner's doing", func(t *testing.T) {
		tr := libraryTrace(t, "wait-host-stall-fires-late")
		if v := oracle.Check(tr, oracle.Options{}); v.Status != oracle.OK {
			t.Fatalf("the run: %s", v)
		}
		bad := *tr
		bad.Records = nil
		for _, r := range tr.Records {
			if f, ok := r.Payload.(trace.Injected); ok && f.Kind == "host-stall" {
				r.Payload = trace.Text("note")
				r.Kind = trace.Note
			}
			bad.Records = append(bad.Records, r)
		}
		v := oracle.Check(&bad, oracle.Options{})
		if v.Status != oracle.Violation || !strings.Contains(v.String(), "INV-WAIT-EXPIRES-ON-TIME") {
			t.Fatalf("without the stall: %s", v)
		}
	})
}
