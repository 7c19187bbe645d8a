package timeline

import (
	"regexp"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

func TestClockReading(t *testing.T) {
	tick := func(time, clock int64) trace.Record {
		return trace.Record{Time: time, Actor: "a", Kind: trace.In, ClientTime: clock, Payload: wire.ClientTick{}}
	}
	host := trace.Record{Time: 500, Actor: trace.ActorHost, Kind: trace.In, Payload: wire.Tick{}}
	jump := func(time, by int64) trace.Record {
		return trace.Record{Time: time, Actor: trace.ActorSim, Kind: trace.Fault, Payload: trace.Injected{Kind: "clock-jump", Target: "a", N: by, Of: -1}}
	}
	for _, c := range []struct {
		name string
		recs []trace.Record
		at   int64
		want int64
		ok   bool
	}{
		{"CD-1 a clock 30 s ahead reads host time plus 30 s between its records", []trace.Record{tick(10, 30_010), host, tick(3000, 33_000)}, 2000, 32_000, true},
		{"CD-1 before its first record, the first record's skew", []trace.Record{host, tick(3000, -117_000)}, 0, -120_000, true},
		{"CD-10 a clock jump moves the reading at the fault's instant, not at the client's next record", []trace.Record{tick(20, 20), jump(1000, 7000), tick(3040, 10_040)}, 1500, 8500, true},
		{"CD-10 before the jump, the clock has not jumped yet", []trace.Record{tick(20, 20), jump(1000, 7000), tick(3040, 10_040)}, 999, 999, true},
		{"CD-10 a jump before the first record is not applied twice", []trace.Record{jump(1000, 7000), tick(3040, 10_040)}, 2000, 9000, true},
		{"CD-10 a drifting clock reads linearly between two records", []trace.Record{tick(0, 0), tick(2000, 3000)}, 1000, 1500, true},
		{"CD-10 and goes on drifting after the last", []trace.Record{tick(0, 0), tick(2000, 3000), host}, 4000, 6000, true},
		{"a client without records has no reading", []trace.Record{host}, 100, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := clockReading(c.recs, "a", c.at)
			if got != c.want || ok != c.ok {
				t.Fatalf("reading at %d: %d %v, want %d %v", c.at, got, ok, c.want, c.ok)
			}
		})
	}
}

// A skewed client's lane carries its clock's readings under the axis's ticks; a client
// whose clock agrees with the host's carries none, and its label says +0s.
func TestSkewedClientsCarryTheirClockReadings(t *testing.T) {
	pg := string(Render(Input{Scenario: "x", Trace: library(t, "cd-client-clock-skew-does-not-matter").Trace}))
	for _, want := range []string{
		`>clock +30s<`,
		`>clock -120s<`,
	} {
		if !strings.Contains(pg, want) {
			t.Errorf("no %s", want)
		}
	}
	readings := regexp.MustCompile(`<text class="lck" data-client="(\w+)" data-tick="\d+" data-x="[0-9.]+" x="[0-9.]+" y="[0-9.]+" text-anchor="middle">([^<]+)<title>[^<]*at ([^ ]+) host time`)
	got := map[string]string{}
	for _, m := range readings.FindAllStringSubmatch(pg, -1) {
		got[m[1]+"@"+m[3]] = m[2]
	}
	if got["ahead@5s"] != "35s" || got["behind@5s"] != "-115s" || got["ahead@0s"] != "30s" {
		t.Fatalf("readings %v", got)
	}
	plain := string(Render(Input{Scenario: "x", Trace: library(t, "multi2-a-answer-before-b-answer-after").Trace}))
	if strings.Contains(plain, `class="lck`) || !strings.Contains(plain, ">clock +0s<") {
		t.Fatal("a client on the host's clock has readings, or its label is not +0s")
	}
}
