package host

import (
	"errors"
	"fmt"

	"github.com/twosettle/twosettle/engine/agent"
	"github.com/twosettle/twosettle/engine/questions"
)

// Config configures a reference host.
type Config struct {
	// ToolMode is the ask_user_question mode: "legacy" (the default, also "") or "timed".
	ToolMode string
	// DefaultTimeoutSec is the timed tool's configured default in seconds: 0 means 120;
	// otherwise -1 or 1..2147483 (validated when the tool is registered, TOOL-3).
	DefaultTimeoutSec int
	// WriteWindowMs is the write-behind window of every Session log: 0 means the peer's
	// 200 ms; -1 is write-through (every event durable as it is appended); other negative
	// values are invalid.
	WriteWindowMs int64
	// Mutant names a deliberate bug, switched on only by this option (the mutants issue).
	// "" is the correct engine; no mutant is defined yet, so any other value is refused.
	Mutant string
}

// window is the write window the runtime gets.
func (c Config) window() (int64, error) {
	switch {
	case c.WriteWindowMs == 0:
		return agent.DefaultWriteWindow, nil
	case c.WriteWindowMs == -1:
		return 0, nil
	case c.WriteWindowMs < 0:
		return 0, fmt.Errorf("host: WriteWindowMs %d: use 0 (200 ms), -1 (write-through) or a positive window", c.WriteWindowMs)
	}
	return c.WriteWindowMs, nil
}

func (c Config) validate() error {
	if _, err := c.window(); err != nil {
		return err
	}
	if err := questions.CheckToolConfig(c.toolConfig()); err != nil {
		return fmt.Errorf("host: ask_user_question: %w", err)
	}
	if c.Mutant != "" {
		return errors.New("host: unknown mutant " + c.Mutant + " (no mutant is defined)")
	}
	return nil
}

func (c Config) toolConfig() questions.ToolConfig {
	return questions.ToolConfig{Mode: c.ToolMode, Timeout: c.DefaultTimeoutSec}
}
