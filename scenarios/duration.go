package scenarios

import (
	"errors"
	"strconv"
	"strings"
)

// Duration is a span of virtual time in milliseconds. Its YAML form is a number with a
// unit: "250ms", "5s", "1.5s", "2m"; a bare 0 is also accepted. A signed form ("+2s",
// "-500ms") is accepted where a field allows negative values (clock skew, clock jumps).
type Duration int64

// Never marks "no time at all" in fields that accept the word never (auto-end).
const Never Duration = -1

// ParseDuration reads the YAML form of a duration. Fractions are allowed to millisecond
// precision ("1.25s", not "1.2345s").
func ParseDuration(s string) (Duration, error) {
	if s == "0" {
		return 0, nil
	}
	t := s
	neg := false
	if strings.HasPrefix(t, "+") {
		t = t[1:]
	} else if strings.HasPrefix(t, "-") {
		neg = true
		t = t[1:]
	}
	var unit int64
	switch {
	case strings.HasSuffix(t, "ms"):
		unit, t = 1, strings.TrimSuffix(t, "ms")
	case strings.HasSuffix(t, "s"):
		unit, t = 1000, strings.TrimSuffix(t, "s")
	case strings.HasSuffix(t, "m"):
		unit, t = 60000, strings.TrimSuffix(t, "m")
	default:
		return 0, errors.New("a duration needs a unit: ms, s or m")
	}
	if t == "" {
		return 0, errors.New("a duration needs a number before its unit")
	}
	whole, frac, hasFrac := strings.Cut(t, ".")
	if whole == "" || !allDigits(whole) || (hasFrac && (frac == "" || !allDigits(frac))) {
		return 0, errors.New("not a number")
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > (1<<53)/unit {
		return 0, errors.New("too large")
	}
	ms := w * unit
	if hasFrac {
		// frac * unit / 10^len(frac) must be a whole number of milliseconds.
		f, err := strconv.ParseInt(frac, 10, 64)
		if err != nil || len(frac) > 6 {
			return 0, errors.New("too many decimals")
		}
		den := int64(1)
		for range len(frac) {
			den *= 10
		}
		if (f*unit)%den != 0 {
			return 0, errors.New("finer than a millisecond")
		}
		ms += f * unit / den
	}
	if neg {
		ms = -ms
	}
	return Duration(ms), nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// String is the canonical YAML form: whole minutes as "2m", whole seconds as "5s", other
// spans of a second or more as decimal seconds ("5.1s"), shorter ones as "250ms".
// Negative spans carry a minus sign.
func (d Duration) String() string {
	if d < 0 {
		return "-" + (-d).String()
	}
	ms := int64(d)
	switch {
	case ms == 0:
		return "0s"
	case ms >= 60000 && ms%60000 == 0:
		return strconv.FormatInt(ms/60000, 10) + "m"
	case ms%1000 == 0:
		return strconv.FormatInt(ms/1000, 10) + "s"
	case ms >= 1000:
		s := strconv.FormatInt(ms/1000, 10) + "." + pad3(ms%1000)
		return strings.TrimRight(s, "0") + "s"
	}
	return strconv.FormatInt(ms, 10) + "ms"
}

// Signed is the canonical form with an explicit sign for positive values ("+2s"), used by
// fields where the sign is meaningful (skew, clock jumps).
func (d Duration) Signed() string {
	if d > 0 {
		return "+" + d.String()
	}
	return d.String()
}

func pad3(n int64) string {
	s := strconv.FormatInt(n, 10)
	for len(s) < 3 {
		s = "0" + s
	}
	return s
}

// Ms is the duration in milliseconds.
func (d Duration) Ms() int64 { return int64(d) }

// Latency is a network delay drawn uniformly from [Min, Max]; its YAML form is a duration
// ("20ms") or a range ("10ms..50ms").
type Latency struct{ Min, Max Duration }

// ParseLatency reads "20ms" or "10ms..50ms".
func ParseLatency(s string) (Latency, error) {
	lo, hi, isRange := strings.Cut(s, "..")
	a, err := ParseDuration(strings.TrimSpace(lo))
	if err != nil {
		return Latency{}, err
	}
	if !isRange {
		if a < 0 {
			return Latency{}, errors.New("a latency cannot be negative")
		}
		return Latency{a, a}, nil
	}
	b, err := ParseDuration(strings.TrimSpace(hi))
	if err != nil {
		return Latency{}, err
	}
	if a < 0 || b < a {
		return Latency{}, errors.New("a latency range runs from a smaller to a larger non-negative duration")
	}
	return Latency{a, b}, nil
}

// String is "20ms" when Min = Max, else "10ms..50ms".
func (l Latency) String() string {
	if l.Min == l.Max {
		return l.Min.String()
	}
	return l.Min.String() + ".." + l.Max.String()
}

// ParsePPM reads a clock drift in parts per million: "500ppm", "-200ppm", "0ppm".
func ParsePPM(s string) (int64, error) {
	t, ok := strings.CutSuffix(s, "ppm")
	if !ok {
		return 0, errors.New("a drift is written in parts per million, like 500ppm")
	}
	t = strings.TrimPrefix(t, "+")
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < -1_000_000 || n > 1_000_000 {
		return 0, errors.New("a drift is a whole number of ppm between -1000000 and 1000000")
	}
	return n, nil
}

// FormatPPM is the canonical form of a drift: "500ppm", "-200ppm".
func FormatPPM(n int64) string { return strconv.FormatInt(n, 10) + "ppm" }
