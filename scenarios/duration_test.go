package scenarios

import (
	"testing"

	"pgregory.net/rapid"
)

func TestParseDuration(t *testing.T) {
	good := map[string]Duration{
		"0": 0, "0s": 0, "250ms": 250, "5s": 5000, "1.5s": 1500, "5.1s": 5100, "1.25s": 1250,
		"2m": 120000, "0.5m": 30000, "+2s": 2000, "-500ms": -500, "120s": 120000,
	}
	for in, want := range good {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "5", "s", "ms", "1.2345s", "1.5ms", "5 s", "5sec", "1h", "-", "+ms", ".5s", "5.s", "1e3s", "99999999999999999999s"} {
		if got, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) = %v, want an error", in, got)
		}
	}
}

func TestDurationStringRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := Duration(rapid.Int64Range(-1<<40, 1<<40).Draw(t, "ms"))
		for _, s := range []string{d.String(), d.Signed()} {
			back, err := ParseDuration(s)
			if err != nil || back != d {
				t.Fatalf("%d ms -> %q -> %v, %v", d, s, back, err)
			}
		}
	})
	for d, want := range map[Duration]string{0: "0s", 1: "1ms", 999: "999ms", 1000: "1s", 1500: "1.5s", 5100: "5.1s", 60000: "1m", 90000: "90s", 120000: "2m", -250: "-250ms"} {
		if d.String() != want {
			t.Errorf("%d ms prints %q, want %q", d, d.String(), want)
		}
	}
}

func TestParseLatencyAndPPM(t *testing.T) {
	if l, err := ParseLatency("10ms..50ms"); err != nil || l != (Latency{10, 50}) || l.String() != "10ms..50ms" {
		t.Fatalf("%v %v", l, err)
	}
	if l, err := ParseLatency("20ms"); err != nil || l != (Latency{20, 20}) || l.String() != "20ms" {
		t.Fatalf("%v %v", l, err)
	}
	for _, bad := range []string{"50ms..10ms", "-5ms", "x..y", "5"} {
		if _, err := ParseLatency(bad); err == nil {
			t.Errorf("ParseLatency(%q) accepted", bad)
		}
	}
	if p, err := ParsePPM("-200ppm"); err != nil || p != -200 || FormatPPM(p) != "-200ppm" {
		t.Fatalf("%v %v", p, err)
	}
	for _, bad := range []string{"200", "2e3ppm", "2000001ppm"} {
		if _, err := ParsePPM(bad); err == nil {
			t.Errorf("ParsePPM(%q) accepted", bad)
		}
	}
}
