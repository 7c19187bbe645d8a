package explore

import (
	"path"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/scenarios"
)

// Each situation of the scenario language's steps is reached by the library scenario that
// states the step, and by no run without the step (the generator's steps are also drawn by
// a 2000-seed campaign: TestGenerationCoversEveryActor and simrun fuzz's report).
func TestSituationsOfTheLanguagesSteps(t *testing.T) {
	lib := map[string][]byte{}
	for _, f := range scenarios.Library() {
		lib[strings.TrimSuffix(path.Base(f.Path), ".yaml")] = f.Data
	}
	cases := []struct{ name, scenario string }{
		{"CARD-4 guarded-continue-refused", "card-guarded-continue-and-row-toggle"},
		{"CARD-4 guarded-continue-taken", "card-guarded-continue-and-row-toggle"},
		{"ROW-1 row-toggled", "card-guarded-continue-and-row-toggle"},
		{"CARD-8 session-unbound-then-bound", "card-unbound-session-is-not-followed"},
		{"ROW-2 raw-input-foreign-session", "row-odd-records-as-a-real-host-sends-them"},
		{"PROJ-12 event-appended-by-hand", "proj-recorded-results-written-by-hand"},
		{"PROJ-4 result-recorded-by-hand", "proj-recorded-results-written-by-hand"},
		{"LATE-6 reply-claimed-by-hand", "late-turn-end-between-claim-and-admission"},
		{"LATE-7 turn-end-between-claim-and-admission", "late-turn-end-between-claim-and-admission"},
		{"WAIT-8 host-stall", "wait-host-stall-fires-late"},
		{"WAIT-8 stall-expires-wait-late", "wait-host-stall-fires-late"},
		{"WAIT-3 held-delivery", "wait-held-delivery-is-not-a-claim"},
		{"WAIT-3 injected-outcome", "wait-held-delivery-is-not-a-claim"},
		{"WAIT-2 injected-claim", "claim-from-a-gone-generation-is-refused"},
		{"GW-6 injected-claim-refused", "claim-from-a-gone-generation-is-refused"},
	}
	plain := reached(t, string(lib["wait-unclaimed-expires-at-deadline"]))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sit := c.name[strings.IndexByte(c.name, ' ')+1:]
			src, ok := lib[c.scenario]
			if !ok {
				t.Fatalf("no library scenario %s", c.scenario)
			}
			if got := reached(t, string(src)); !has(got, sit) {
				t.Errorf("%s did not reach %s: %v", c.scenario, sit, got)
			}
			if has(plain, sit) {
				t.Errorf("a scenario without the step reached %s", sit)
			}
		})
	}
}
