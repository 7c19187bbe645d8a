package conform

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/oracle"
	"github.com/twosettle/twosettle/sim"
)

// Needs lists the protocol features a run of cfg with host configuration hc uses,
// sorted: what a host must declare for the run to apply to it (docs/PROTOCOL.md,
// "Features").
func Needs(cfg *sim.Config, hc wire.HostConfig) []string {
	set := map[string]bool{}
	if hc.WriteWindowMs != -1 {
		set[FeatureWriteWindow] = true
	}
	for _, st := range cfg.Steps {
		switch c := st.Host.(type) {
		case wire.ToolCall:
			switch c.Name {
			case "run_code":
				set[FeaturePTC] = true
			case "sleep":
				set[FeatureSleep] = true
			}
		case wire.Restart:
			set[FeatureRestart] = true
			if c.CutAfter >= 0 {
				set[FeatureCrashCut] = true
			}
		case wire.OpenSession:
			if c.ForkOf != "" {
				set[FeatureFork] = true
			}
		case wire.Direct:
			set[FeatureDirect] = true
		case wire.FailInboxWrite:
			set[FeatureInboxFaults] = true
		case wire.AppendEvent, wire.ClaimReply:
			set[FeatureAppendEvent] = true
		case wire.Send:
			if c.Source.Kind != "" {
				set[FeatureSource] = true
			}
		}
		if f := st.Fault; f != nil {
			switch f.Kind {
			case sim.FaultCrash:
				set[FeatureRestart] = true
				if f.Point != sim.PointNow {
					set[FeatureCrashCut] = true
				}
			case sim.FaultInboxWrite:
				set[FeatureInboxFaults] = true
			}
		}
	}
	if cfg.Faults.CrashPerMin > 0 {
		set[FeatureRestart], set[FeatureCrashCut] = true, true
	}
	if cfg.Faults.InboxWriteFailPerMin > 0 {
		set[FeatureInboxFaults] = true
	}
	var out []string
	for _, f := range KnownFeatures() {
		if set[f] {
			out = append(out, f)
		}
	}
	return out
}

// missing is what of needs the host does not declare.
func missing(needs, declared []string) []string {
	var out []string
	for _, n := range needs {
		if !has(declared, n) {
			out = append(out, n)
		}
	}
	return out
}

// NotChecked lists the oracle's invariants a host with these features cannot be judged
// on: those that need its volatile state (WaitNote effects, HostState's waits,
// reservations and pending events) when it does not declare introspection. They are
// reported as not checked, never as passed.
func NotChecked(features []string) []string {
	if has(features, FeatureIntrospection) {
		return nil
	}
	var out []string
	for _, inv := range oracle.Catalogue() {
		if inv.Needs == oracle.NeedsWaitNote || inv.Needs == oracle.NeedsHostState {
			out = append(out, inv.Name)
		}
	}
	return out
}
