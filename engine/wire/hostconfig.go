package wire

import "strconv"

// HostConfig is the configuration a scenario gives the host it runs against: what the
// scenario runner hands a host factory and what the conformance protocol's start message
// carries to an external host. It holds only what the decision lets a deployment choose;
// anything an implementation adds (the reference engine's mutants) is the factory's own.
type HostConfig struct {
	// ToolMode is the ask_user_question mode: "legacy" (also "") or "timed" (TOOL-1).
	ToolMode string
	// DefaultTimeoutSec is the timed tool's configured default timeout in seconds: 0
	// means the decision's default (120 s); otherwise -1 (blocking) or 1..2147483, and any
	// other value is refused when the tool is registered (TOOL-3).
	DefaultTimeoutSec int
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
	if c.DefaultTimeoutSec != 0 {
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
