package sim

import "github.com/twosettle/twosettle/engine/wire"

// This file is the simulator's public configuration: what a scenario (or the fuzzer's
// generator) compiles to. It is the contract between package scenarios and package sim.

// Config is one run.
type Config struct {
	// Seed is split into independent streams (schedule, network, faults, generation).
	Seed uint64
	// Clients are the answer UIs, in the order their names sort.
	Clients []ClientConfig
	// Limit is the virtual time limit in ms: the run stops at the first event due after
	// it. 0 runs to quiescence (no event, timer or step left).
	Limit int64
	// Steps are the scripted actions, in time order (ties keep their order).
	Steps []Step
	// Model is the policy of the model actor for what the script leaves open.
	Model ModelConfig
	// Faults are random faults drawn from the fault stream (swarm testing). The zero value
	// injects none.
	Faults FaultConfig
	// Healed is the virtual time after which no random fault is injected (the healed
	// phase the oracle checks liveness in). 0 means faults may land at any time.
	Healed int64
}

// ClientConfig is one client and its network link.
type ClientConfig struct {
	Name string
	// Mux is the latency of the ordered, reliable link that carries events and streams
	// (both directions).
	Mux Latency
	// HTTP is the latency of the separate request/response channel ($events/result and
	// RPCs), each direction; it may overtake or lag the mux link.
	HTTP Latency
	// Clock is the client's own clock against the simulator's.
	Clock Clock
	// Offline: the client does not dial at time 0 (a script step connects it later).
	Offline bool
	// ReconnectMs is how long a client waits after losing its link before it dials again;
	// < 0 never redials by itself.
	ReconnectMs int64
}

// Latency is a delay drawn uniformly from [Min, Max] ms by the network stream.
type Latency struct{ Min, Max int64 }

// Clock maps simulator time to a client's clock: client = Offset + t + t*DriftPPM/1e6,
// plus the sum of the jumps already applied (CD-1, CD-10).
type Clock struct {
	Offset   int64
	DriftPPM int64
}

// Step is one scripted action at virtual time At, addressed to one actor. Exactly one of
// the payload fields is set.
type Step struct {
	At int64
	// Host is a command delivered to the host as it is: model actions (Header, ToolCall,
	// EndStep, CancelTurn, Send, OpenSession, CloseSession, Direct) and Restart.
	Host wire.Command
	// Client and User: an action of that client's user.
	Client string
	User   *wire.UserAction
	// Net is a network action.
	Net *NetAction
	// Fault is a fault at a named point.
	Fault *Fault
	// Probe snapshots the host and every client into the trace under this label, so that
	// expectations at a time can be checked against the trace.
	Probe string
	// Line is the source line of the step (for error messages), 0 if none.
	Line int
}

// Net action kinds.
const (
	NetDisconnect = "disconnect" // drop Client's mux link now
	NetReconnect  = "reconnect"  // have Client dial now
	NetPartition  = "partition"  // Client's links drop for DurationMs: mux frames and HTTP messages in flight are lost
	NetDelay      = "delay"      // add DurationMs to Client's next HTTP message (request or reply)
	NetLose       = "lose"       // lose Client's next HTTP message (request or reply)
)

// NetAction acts on one client's links.
type NetAction struct {
	Kind       string
	Client     string
	DurationMs int64
}

// Fault kinds.
const (
	FaultCrash       = "crash"        // host crash + cold restart (AGENT-2, AGENT-6)
	FaultReload      = "reload"       // client reload: drafts kept, everything else lost
	FaultClientCrash = "client-crash" // client gone for good (its link drops, no redial)
	FaultClockJump   = "clock-jump"   // client clock jumps by ByMs
	FaultClockDrift  = "clock-drift"  // client clock drift set to PPM from now on
)

// Crash points: where a crash lands relative to the host's effects. The zero value
// crashes between commands, at the step's time.
const (
	PointNow               = ""                    // between commands
	PointBeforePTCDispatch = "before-ptc-dispatch" // the next Apply that appends tool/ptc-dispatch is cut just before that record is persisted
	PointAfterPTCDispatch  = "after-ptc-dispatch"  // right after a tool/ptc-dispatch record is persisted
	PointBeforeAnswerAck   = "before-answer-ack"   // the next answer RPC is cut before its reply
	PointAfterAnswerAck    = "after-answer-ack"    // right after an answer RPC's reply
	PointBetweenClaimAdmit = "between-claim-admit" // after a reply is claimed from the inbox, before its user/message
	PointInsideWriteWindow = "inside-write-window" // while some event is appended but not yet persisted
	PointAfterEffect       = "after-effect"        // inside the next Apply, after its first Effect effects
)

// Fault is one injected fault.
type Fault struct {
	Kind   string
	Client string // reload, client-crash, clock-jump, clock-drift
	Point  string // crash: where it lands (PointNow if empty)
	Effect int    // crash at PointAfterEffect: how many effects survive
	ByMs   int64  // clock-jump
	PPM    int64  // clock-drift
}

// ModelConfig is how the model actor fills in what the script leaves open.
type ModelConfig struct {
	// AutoEndMs: when a step opens and the script gives the model nothing more to do in
	// it, the model ends the step (final) this long after the step started. < 0 never:
	// the script must end every step.
	AutoEndMs int64
}

// FaultConfig is the swarm configuration of random faults: for each kind, the mean
// number of injections per simulated minute (0 = off).
type FaultConfig struct {
	CrashPerMin      float64
	DisconnectPerMin float64
	ReloadPerMin     float64
	ClockJumpPerMin  float64
	PartitionPerMin  float64
	LoseHTTPPerMin   float64
}
