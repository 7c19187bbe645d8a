package harness

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/scenarios"
)

// HostConfig is the host configuration a scenario declares (its tool mode, default
// timeout and write window), as the host factory receives it: the one place that reads
// those keys of a scenario. Compile puts it in the Plan; OracleOptions derives the
// oracle's view of the same configuration from it.
func HostConfig(s *scenarios.Scenario) wire.HostConfig {
	c := wire.HostConfig{ToolMode: s.Mode}
	if s.Timeout != nil {
		c.DefaultTimeoutSec, c.DefaultTimeoutSet = int(*s.Timeout), true
	}
	if s.WriteWindow != nil {
		c.WriteWindowMs = span(*s.WriteWindow)
		if *s.WriteWindow == 0 {
			c.WriteWindowMs = -1
		}
	}
	return c
}

// OracleOptions are the oracle's options for a scenario, for every run path that judges
// one (ReferenceOracle for simrun run and replay, explore's runner for fuzzing and
// shrinking, conform's judge): the host's configured default timeout (HostConfig: 120 s
// when the scenario names none, -1 for blocking) and the healed phase when the scenario's
// explore: names one (otherwise the oracle derives it from the trace).
func OracleOptions(s *scenarios.Scenario) oracle.Options {
	return oracleOptions(HostConfig(s), s)
}

func oracleOptions(c wire.HostConfig, s *scenarios.Scenario) oracle.Options {
	opts := oracle.Options{DefaultTimeoutMs: 120_000}
	switch {
	case c.DefaultTimeoutSec < 0:
		opts.DefaultTimeoutMs = -1
	case c.DefaultTimeoutSec > 0:
		opts.DefaultTimeoutMs = int64(c.DefaultTimeoutSec) * 1000
	}
	if s.Explore != nil && s.Explore.Healed > 0 {
		opts.HealedAt = s.Explore.Healed.Ms()
	}
	return opts
}
