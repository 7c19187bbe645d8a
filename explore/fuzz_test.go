package explore

import (
	"testing"

	"github.com/twosettle/twosettle/scenarios"
)

// FuzzScenario turns the fuzzer's bytes into the generator's draws (BytesRand), runs the
// scenario against the reference engine and checks the oracle, so coverage-guided
// engines (go test -fuzz, OSS-Fuzz, ClusterFuzzLite) drive the harness as it is:
//
//	go test ./explore -run '^$' -fuzz FuzzScenario -fuzztime 60s
//
// A failure prints the scenario's YAML; save it as a file and run simrun replay on it.
// Every generated scenario must also pass Validate and survive Encode/Decode.
func FuzzScenario(f *testing.F) {
	for _, seed := range []string{"", "twosettle", "\x01\x02\x03\x04\x05\x06\x07\x08", "\xff\xff\xff\xff\xff\xff\xff\xff\x00"} {
		f.Add([]byte(seed))
	}
	r := NewRunner(Options{})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := GenerateFrom(BytesRand(data))
		if err := scenarios.Validate(s); err != nil {
			t.Fatalf("invalid scenario: %v", err)
		}
		y := scenarios.Encode(s)
		if _, err := scenarios.Decode("fuzz.yaml", y); err != nil {
			t.Fatalf("the YAML does not decode: %v\n%s", err, y)
		}
		out, _ := r.Run(s)
		if out.Failed() && !knownFindings[out.Invariant()] {
			t.Fatalf("%s\n%s", out.Message(), y)
		}
	})
}
