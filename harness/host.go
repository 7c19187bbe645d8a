package harness

import (
	"errors"
	"io"

	"github.com/twosettle/twosettle/engine/client"
	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/sim"
	"github.com/twosettle/twosettle/trace"
)

// HostFactory builds a fresh host for one run from the scenario's host configuration.
// It must be safe for concurrent use (a campaign's workers share it). An error that is a
// *wire.PortLost means the host could not be reached: the run is broken, not a verdict.
// Any other error is the host refusing that configuration (TOOL-3), which a transcript
// records. If the port also implements io.Closer, the run path closes it exactly once,
// after the final state was read, whatever happened.
type HostFactory func(cfg wire.HostConfig) (wire.HostPort, error)

// ReferenceHost is the factory of the reference host (engine/host) with mutant switched
// on ("" none).
func ReferenceHost(mutant string) HostFactory {
	return func(cfg wire.HostConfig) (wire.HostPort, error) {
		return host.New(host.Config{ToolMode: cfg.ToolMode, DefaultTimeoutSec: cfg.DefaultTimeoutSec, DefaultTimeoutSet: cfg.DefaultTimeoutSet, WriteWindowMs: cfg.WriteWindowMs.Ms(), Mutant: mutant})
	}
}

// ClientFactory builds a fresh client (one answer UI and its user) for one run from the
// scenario's configuration of that client: the client seam, as HostFactory is the host's.
// It must be safe for concurrent use. An error means the client could not be reached
// (the run is broken, not a verdict). If the port also implements io.Closer, the run
// path closes it exactly once, after the final state was read.
type ClientFactory func(cfg wire.ClientConfig) (wire.ClientPort, error)

// ReferenceClient is the factory of the reference client (engine/client) with mutant
// switched on ("" none).
func ReferenceClient(mutant string) ClientFactory {
	return func(cfg wire.ClientConfig) (wire.ClientPort, error) {
		return client.New(client.Config{Name: cfg.Name, TickMs: cfg.TickMs.Ms(), Seed: cfg.Seed, Drafts: cfg.Drafts, Mutant: mutant}), nil
	}
}

// Execution is what one Execute produced: at most one of Lost, ConfigErr and Refused is
// set (in that order of precedence), and SimErr is set with Refused or alone (a run
// error) or together with a Lost that stopped the run.
type Execution struct {
	// Lost is set when the host was lost: from the factory, an Apply, or wire.LostOf
	// after the run. The run is broken, not a verdict.
	Lost *wire.PortLost
	// LostClient names the client whose port was lost, when Lost is a client's ("": the
	// host's).
	LostClient string
	// ConfigErr is the host's refusal of its configuration (nothing ran).
	ConfigErr error
	// Refused is the simulator's refusal of the configuration (nothing meaningful ran).
	Refused *sim.ConfigError
	// SimErr is the error the simulator returned (with Refused, that refusal; else the
	// error the run stopped with, the trace holding what ran).
	SimErr error
}

// Execute is the one run sequence of every scenario run (harness and explore): the host
// from hosts, the reference clients of the plan (with clientMutant), the simulator into
// tr, and the host closed at the end (after the final state was read). runner, ports
// and tr may be reused between runs: tr holds nothing of an earlier run whatever stops
// this one.
func Execute(plan *Plan, hosts HostFactory, clientMutant string, runner *sim.Runner, ports map[string]wire.ClientPort, tr *trace.Trace) Execution {
	return ExecuteWith(plan, hosts, ReferenceClient(clientMutant), runner, ports, tr)
}

// ExecuteWith is Execute with the clients built by clients (nil: the reference client):
// a client the factory cannot build, or lost during the run, makes the run lost as a
// lost host does (Execution.Lost names the client).
func ExecuteWith(plan *Plan, hosts HostFactory, clients ClientFactory, runner *sim.Runner, ports map[string]wire.ClientPort, tr *trace.Trace) Execution {
	if clients == nil {
		clients = ReferenceClient("")
	}
	var x Execution
	tr.Seed, tr.Records, tr.Final = plan.Seed, tr.Records[:0], trace.Final{Clients: tr.Final.Clients[:0]}
	h, err := hosts(plan.Host)
	if c, ok := h.(io.Closer); ok {
		defer c.Close() // also a port returned together with an error: whatever happened
	}
	if err != nil {
		if !errors.As(err, &x.Lost) {
			x.ConfigErr = err
		}
		return x
	}
	clear(ports)
	for _, c := range plan.Clients {
		if plan.Holding[c.Name] {
			ports[c.Name] = &holdingClient{name: c.Name} // a harness fixture, not a UI: never the factory's
			continue
		}
		p, err := clients(wire.ClientConfig{Name: c.Name, TickMs: wire.Duration(c.TickMs), Seed: c.Seed, Drafts: c.Drafts})
		if cl, ok := p.(io.Closer); ok {
			defer cl.Close()
		}
		if err != nil {
			if !errors.As(err, &x.Lost) {
				x.Lost = &wire.PortLost{Err: err}
			}
			x.LostClient = c.Name
			return x
		}
		ports[c.Name] = p
	}
	x.SimErr = runner.Run(&plan.Sim, h, ports, tr)
	if errors.As(x.SimErr, &x.Lost) {
		x.LostClient = sim.LostClient(x.SimErr)
	} else {
		x.Lost = wire.LostOf(h)
	}
	for _, c := range plan.Clients {
		if x.Lost == nil {
			if x.Lost = wire.LostOf(ports[c.Name]); x.Lost != nil {
				x.LostClient = c.Name
			}
		}
	}
	if x.Lost == nil {
		errors.As(x.SimErr, &x.Refused)
	}
	return x
}
