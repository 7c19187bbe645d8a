package wire

import "strconv"

// HostConfig is the configuration a scenario gives the host it runs against: what the
// scenario runner hands a host factory and what the conformance protocol's start message
// carries to an external host. It holds only what the decision lets a deployment choose;
// anything an implementation adds (the reference engine's mutants) is the factory's own.
type HostConfig struct {
	// ToolMode is the ask_user_question mode: "legacy" (also "") or "timed" (TOOL-1).
	ToolMode string
	// DefaultTimeoutSec is the timed tool's configured default timeout in seconds when
	// DefaultTimeoutSet: -1 (blocking) or 1..2147483, and any other value, 0 included, is
	// refused when the tool is registered (TOOL-3). Unset, it is the decision's default
	// (120 s); a nonzero value counts as set.
	DefaultTimeoutSec int
	// DefaultTimeoutSet says a default timeout was configured, so that a configured 0 is
	// not mistaken for "no default configured" (and refused, TOOL-3).
	DefaultTimeoutSet bool
	// WriteWindowMs is the write-behind window of every Session log: 0 means the peer's
	// 200 ms, -1 write-through (every event durable as it is appended), other negative
	// values are invalid.
	WriteWindowMs Duration
}

// String is the canonical text: "mode=timed timeout=120s window=200ms".
func (c HostConfig) String() string {
	mode := c.ToolMode
	if mode == "" {
		mode = "legacy"
	}
	t := "default"
	if c.TimeoutConfigured() {
		t = strconv.Itoa(c.DefaultTimeoutSec) + "s"
	}
	w := "default"
	switch {
	case c.WriteWindowMs == -1:
		w = "write-through"
	case c.WriteWindowMs != 0:
		w = c.WriteWindowMs.String() + "ms"
	}
	return "mode=" + mode + " timeout=" + t + " window=" + w
}

// TimeoutConfigured reports whether a default timeout was configured (set, or nonzero).
func (c HostConfig) TimeoutConfigured() bool { return c.DefaultTimeoutSet || c.DefaultTimeoutSec != 0 }
