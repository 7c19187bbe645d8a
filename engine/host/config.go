package host

import (
	"errors"
	"fmt"

	"github.com/twosettle/twosettle/engine/agent"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/questions"
)

// Config configures a reference host.
type Config struct {
	// ToolMode is the ask_user_question mode: "legacy" (the default, also "") or "timed".
	ToolMode string
	// DefaultTimeoutSec is the timed tool's configured default in seconds: -1 or
	// 1..2147483 (validated when the tool is registered, TOOL-3). 0 means 120 unless
	// DefaultTimeoutSet, when a configured 0 is refused.
	DefaultTimeoutSec int
	// DefaultTimeoutSet says DefaultTimeoutSec was configured (see wire.HostConfig).
	DefaultTimeoutSet bool
	// WriteWindowMs is the write-behind window of every Session log: 0 means the peer's
	// 200 ms; -1 is write-through (every event durable as it is appended); other negative
	// values are invalid.
	WriteWindowMs int64
	// Mutant names a deliberate bug of the reference engine (engine/mutant), switched on
	// only by this option; "" is the correct engine. The host acts on host-side mutants and
	// accepts client-side names (the clients act on those); an unknown name is refused.
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
	if _, err := mutant.Parse(c.Mutant); err != nil {
		return errors.New("host: " + err.Error())
	}
	return nil
}

// mutants is the set Mutant names (validate has checked it).
func (c Config) mutants() mutant.Set {
	s, _ := mutant.Parse(c.Mutant)
	return s
}

func (c Config) toolConfig() questions.ToolConfig {
	return questions.ToolConfig{Mode: c.ToolMode, Timeout: c.DefaultTimeoutSec, TimeoutSet: c.DefaultTimeoutSet, Mutants: c.mutants()}
}
