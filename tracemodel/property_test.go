package tracemodel_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/twosettle/twosettle/explore"
	"github.com/twosettle/twosettle/trace"
	"github.com/twosettle/twosettle/tracemodel"
)

// run is a generated seed's trace (copied out of the runner's reused buffer).
func run(r *explore.Runner, seed uint64) *trace.Trace {
	out, _ := r.Run(explore.Generate(seed))
	tr := *out.Trace
	tr.Records = append([]trace.Record(nil), tr.Records...)
	return &tr
}

// Folding is deterministic: the same trace folds to equal models, whether by a fresh
// Fold or by a Folder that folded another trace before (its reused tables leak nothing).
func TestFoldIsDeterministic(t *testing.T) {
	r := explore.NewRunner(explore.Options{})
	opts := cmp.Options{cmpopts.IgnoreUnexported(tracemodel.Run{}), cmp.AllowUnexported(tracemodel.Call{}, tracemodel.Request{}), cmpopts.IgnoreFields(tracemodel.Run{}, "Trace", "Records")}
	var traces []*trace.Trace // runs are the costly part: a few, folded in every order
	for seed := uint64(1); seed <= 16; seed++ {
		traces = append(traces, run(r, seed*97))
	}
	var folder tracemodel.Folder
	rapid.Check(t, func(t *rapid.T) {
		a := traces[rapid.IntRange(0, len(traces)-1).Draw(t, "trace")]
		b := traces[rapid.IntRange(0, len(traces)-1).Draw(t, "before")]
		want := tracemodel.Fold(a)
		folder.Fold(b)
		got := folder.Fold(a)
		if d := cmp.Diff(want, got, opts); d != "" {
			t.Fatalf("the model of one trace differs between folds (-fresh +reused):\n%s", d)
		}
		if d := cmp.Diff(want.Messages(), got.Messages()); d != "" {
			t.Fatalf("messages differ:\n%s", d)
		}
		if len(got.Facts) != len(a.Records) {
			t.Fatalf("%d facts for %d records", len(got.Facts), len(a.Records))
		}
	})
}
