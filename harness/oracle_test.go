package harness

import (
	"testing"

	"github.com/twosettle/twosettle/scenarios"
)

func TestOracleOptionsFollowTheHostConfig(t *testing.T) {
	cases := []struct {
		name, yaml     string
		timeoutMs      int64
		healedAt       int64
		hostTimeoutSec int
	}{
		{"TOOL-2 no timeout configured: the decision's 120 s", "", 120_000, 0, 0},
		{"TOOL-2 a configured default timeout", "timeout: 5\n", 5_000, 0, 5},
		{"TOOL-4 a blocking default", "timeout: -1\n", -1, 0, -1},
		{"the healed phase explore: names (liveness, docs/ARCHITECTURE.md §5)", "explore: {healed: 30s}\n", 120_000, 30_000, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "name: x\nsummary: x\ncovers: [TOOL-2]\nmode: timed\n" + c.yaml + "steps:\n  - {at: 0s, model: {prompt: go}}\n"
			s, err := scenarios.Decode("x.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			o := OracleOptions(s)
			if o.DefaultTimeoutMs != c.timeoutMs || o.HealedAt != c.healedAt {
				t.Fatalf("oracle options %+v", o)
			}
			// the host and the oracle read the same configuration
			if p := Compile(s, 0); p.Host != HostConfig(s) || p.Host.DefaultTimeoutSec != c.hostTimeoutSec {
				t.Fatalf("compiled host config %+v, HostConfig %+v", p.Host, HostConfig(s))
			}
		})
	}
}
