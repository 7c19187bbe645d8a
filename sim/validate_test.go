package sim

import (
	"errors"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

func TestValidateRejectsWhatTheSimulatorCannotHonour(t *testing.T) {
	base := func() Config {
		return Config{Clients: []ClientConfig{{Name: "c1"}, {Name: "c2"}}}
	}
	cases := []struct {
		name string
		mod  func(*Config)
		want string
	}{
		{"negative latency", func(c *Config) { c.Clients[0].Mux = Latency{-1, 5} }, "negative latency"},
		{"latency min above max", func(c *Config) { c.Clients[1].HTTP = Latency{9, 5} }, "exceeds max"},
		{"unsorted clients", func(c *Config) { c.Clients[0].Name, c.Clients[1].Name = "c2", "c1" }, "not sorted"},
		{"duplicate client", func(c *Config) { c.Clients[1].Name = "c1" }, "duplicate"},
		{"reserved client name", func(c *Config) { c.Clients[1].Name = "net" }, "invalid client name"},
		{"bad client name", func(c *Config) { c.Clients[1].Name = "c 2" }, "invalid client name"},
		{"drift out of range", func(c *Config) { c.Clients[0].Clock.DriftPPM = -1_000_000 }, "drift"},
		{"negative limit", func(c *Config) { c.Limit = -1 }, "negative limit"},
		{"unknown client in a user step", func(c *Config) {
			c.Steps = []Step{{At: 1, Client: "c9", User: &wire.UserAction{Kind: wire.ActSubmit}, Line: 12}}
		}, `step 0 (line 12): client: unknown client "c9"`},
		{"unknown user action", func(c *Config) {
			c.Steps = []Step{{At: 1, Client: "c1", User: &wire.UserAction{Kind: "dance"}}}
		}, "unknown user action"},
		{"unknown client in a net step", func(c *Config) { c.Steps = []Step{{Net: &NetAction{Kind: NetDisconnect, Client: "x"}}} }, "unknown client"},
		{"unknown net action", func(c *Config) { c.Steps = []Step{{Net: &NetAction{Kind: "flap", Client: "c1"}}} }, "unknown network action"},
		{"negative duration", func(c *Config) {
			c.Steps = []Step{{Net: &NetAction{Kind: NetPartition, Client: "c1", DurationMs: -5}}}
		}, "negative duration"},
		{"fault at a point that does not exist", func(c *Config) {
			c.Steps = []Step{{Fault: &Fault{Kind: FaultCrash, Point: "mid-air"}}}
		}, `unknown crash point "mid-air"`},
		{"unknown fault", func(c *Config) { c.Steps = []Step{{Fault: &Fault{Kind: "meteor"}}} }, "unknown fault"},
		{"point on a non-crash fault", func(c *Config) {
			c.Steps = []Step{{Fault: &Fault{Kind: FaultReload, Client: "c1", Point: PointAfterEffect}}}
		}, "only a crash has a point"},
		{"effect count without after-effect", func(c *Config) {
			c.Steps = []Step{{Fault: &Fault{Kind: FaultCrash, Point: PointBeforeAnswerAck, Effect: 2}}}
		}, "effect is only for point"},
		{"fault for an unknown client", func(c *Config) { c.Steps = []Step{{Fault: &Fault{Kind: FaultReload, Client: "zz"}}} }, "unknown client"},
		{"cancel-turn without session", func(c *Config) { c.Steps = []Step{{Fault: &Fault{Kind: FaultCancelTurn}}} }, "needs a session"},
		{"inbox-write-fail without session", func(c *Config) { c.Steps = []Step{{Fault: &Fault{Kind: FaultInboxWrite}}} }, "needs a session"},
		{"host-stall of nothing", func(c *Config) { c.Steps = []Step{{Fault: &Fault{Kind: FaultHostStall}}} }, "a host stall lasts a positive time"},
		{"host-stall naming a client", func(c *Config) { c.Steps = []Step{{Fault: &Fault{Kind: FaultHostStall, ByMs: 5, Client: "a"}}} }, "names no client or session"},
		{"steps out of time order", func(c *Config) {
			c.Steps = []Step{{At: 10, Probe: "a"}, {At: 5, Probe: "b"}}
		}, "step 1: at: steps out of time order (5 after 10)"},
		{"negative step time", func(c *Config) { c.Steps = []Step{{At: -1, Probe: "a"}} }, "negative time"},
		{"empty step", func(c *Config) { c.Steps = []Step{{At: 1}} }, "exactly one of"},
		{"two payloads", func(c *Config) { c.Steps = []Step{{At: 1, Probe: "a", Host: wire.Tick{}}} }, "exactly one of"},
		{"client on a host step", func(c *Config) { c.Steps = []Step{{At: 1, Client: "c1", Host: wire.Tick{}}} }, "client is only for user and input steps"},
		{"input for an unknown client", func(c *Config) { c.Steps = []Step{{At: 1, Client: "c9", Input: wire.ClientTick{}}} }, "unknown client"},
		{"input with a user action", func(c *Config) {
			c.Steps = []Step{{At: 1, Client: "c1", Input: wire.ClientTick{}, User: &wire.UserAction{Kind: wire.ActFocus}}}
		}, "exactly one of host, user, input"},
		{"connect as a host command", func(c *Config) { c.Steps = []Step{{Host: wire.Connect{Client: "c1"}}} }, "network actions"},
		{"scripted restart inside an apply", func(c *Config) { c.Steps = []Step{{Host: wire.Restart{CutAfter: 0}}} }, "between commands"},
		{"raw event result for an unknown client", func(c *Config) { c.Steps = []Step{{Host: wire.EventResult{Client: "c7"}}} }, "unknown client"},
		{"random faults that never stop", func(c *Config) { c.Faults.CrashPerMin = 1 }, "never stop"},
		{"negative fault rate", func(c *Config) { c.Faults.ReloadPerMin = -1; c.Healed = 100 }, "rate must be"},
		{"client faults without clients", func(c *Config) { c.Clients = nil; c.Faults.DisconnectPerMin = 1; c.Healed = 100 }, "no clients"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base()
			tc.mod(&cfg)
			err := Validate(&cfg)
			if err == nil {
				t.Fatalf("accepted; want an error containing %q", tc.want)
			}
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %T is not a *ConfigError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err, tc.want)
			}
			// Run refuses it too, before touching any port.
			h := newFakeHost(0)
			if _, err := Simulate(cfg, h, map[string]wire.ClientPort{"c1": newFakeClient("c1", -1), "c2": newFakeClient("c2", -1)}); err == nil {
				t.Fatal("Run accepted an invalid configuration")
			}
			if len(h.out) != 0 || h.genN != 0 {
				t.Fatal("Run touched the host before refusing the configuration")
			}
		})
	}
	t.Run("valid config passes", func(t *testing.T) {
		cfg := raceConfig(1)
		cfg.Steps = append(cfg.Steps, Step{At: 200, Fault: &Fault{Kind: FaultCrash, Point: PointAfterEffect, Effect: 2}},
			Step{At: 200, Net: &NetAction{Kind: NetPartition, Client: "c2", DurationMs: 10}})
		if err := Validate(&cfg); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ports must match the configured clients", func(t *testing.T) {
		cfg := raceConfig(1)
		if _, err := Simulate(cfg, newFakeHost(0), map[string]wire.ClientPort{"c1": newFakeClient("c1", -1)}); err == nil || !strings.Contains(err.Error(), "client ports") {
			t.Fatalf("got %v", err)
		}
		if _, err := Simulate(cfg, newFakeHost(0), map[string]wire.ClientPort{"c1": newFakeClient("c1", -1), "c3": newFakeClient("c3", -1)}); err == nil || !strings.Contains(err.Error(), `no client port for "c2"`) {
			t.Fatalf("got %v", err)
		}
		if _, err := Simulate(cfg, nil, nil); err == nil {
			t.Fatal("nil host accepted")
		}
	})
}
