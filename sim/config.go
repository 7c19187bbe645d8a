package sim

import "github.com/twosettle/twosettle/engine/wire"

// This file is the simulator's public configuration: what a scenario (or the fuzzer's
// generator) compiles to. It is the contract between package scenarios and package sim.
// Validate checks it; Run refuses a configuration Validate rejects. The semantics of each
// field are in the package doc (doc.go).

// Config is one run.
type Config struct {
	// Seed is split into independent streams (schedule, network, faults, generation).
	Seed uint64
	// Clients are the answer UIs, in the order their names sort (Validate checks it).
	// A name is 1..32 characters of [A-Za-z0-9_-] and not one of the reserved actor names
	// host, net, model, sim, user.
	Clients []ClientConfig
	// Limit is the virtual time limit: the run stops at the first event due after it. 0
	// runs to quiescence (no event, timer or step left).
	Limit wire.Time
	// Steps are the scripted actions, in time order (ties keep their order).
	Steps []Step
	// Model is the policy of the model actor for what the script leaves open.
	Model ModelConfig
	// Faults are random faults drawn from the fault stream (swarm testing). The zero value
	// injects none.
	Faults FaultConfig
	// Healed is the virtual time after which no random fault is injected (the healed
	// phase the oracle checks liveness in). With random faults on, Healed or Limit must
	// be set (random faults are drawn in [0, Healed), or [0, Limit] when Healed is 0).
	Healed wire.Time
	// MaxRecords bounds the trace: a run that would record more fails with an error (a
	// livelock guard). 0 means DefaultMaxRecords.
	MaxRecords int
}

// DefaultMaxRecords is the record budget of a run when Config.MaxRecords is 0.
const DefaultMaxRecords = 1 << 20

// ClientConfig is one client and its network link.
type ClientConfig struct {
	Name string
	// Mux is the latency of the ordered, reliable link that carries events and streams
	// (both directions, drawn per message; order is kept whatever the draws).
	Mux Latency
	// HTTP is the latency of the separate request/response channel ($events/result and
	// RPCs), each direction, drawn per message; it may overtake or lag the mux link.
	HTTP Latency
	// Clock is the client's own clock against the simulator's.
	Clock Clock
	// Offline: the client does not dial at time 0 (a script step connects it later).
	Offline bool
	// ReconnectMs is how long a client waits after losing its link before it dials again
	// (the backoff applied to every Dial the client emits, except the first one after a
	// reload or a reconnect step, which leave at once); < 0 never redials by itself (only
	// a reload or a reconnect step connects it again).
	ReconnectMs wire.Duration
}

// Latency is a delay drawn uniformly from [Min, Max] by the network stream
// (0 <= Min <= Max; Min == Max draws nothing).
type Latency struct{ Min, Max wire.Duration }

// Clock maps simulator time to a client's clock: client = Offset + t + floor(t*DriftPPM/1e6),
// plus the sum of the jumps already applied (CD-1, CD-10). A drift change at t0 continues
// the clock from its reading at t0 at the new rate. DriftPPM is in (-1e6, 1e6).
type Clock struct {
	Offset   wire.Duration
	DriftPPM int64
}

// Step is one scripted action at virtual time At, addressed to one actor. Exactly one of
// the payload fields is set (Host, User, Input, Net, Fault, Probe).
type Step struct {
	At wire.Time
	// Host is a command delivered to the host as it is: model actions (Header, ToolCall,
	// EndStep, CancelTurn, Send, OpenSession, CloseSession, Direct), Restart with
	// CutAfter -1, and raw client-channel commands (EventResult, StreamOpen, StreamCancel,
	// Call) injected as they are. Connect and Disconnect are refused: use Net steps, so
	// the simulator's links stay in step with the host.
	Host wire.Command
	// Client and User: an action of that client's user.
	Client string
	User   *wire.UserAction
	// Client and Input: an input delivered to that client as it is, below its user and
	// its network (a frame or a reply as a real host may send it; docs/PROTOCOL.md
	// "Clients").
	Input wire.ClientInput
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
	NetReconnect  = "reconnect"  // have Client dial now (a link that is up is dropped first)
	NetPartition  = "partition"  // Client's links drop for DurationMs: mux frames and HTTP messages in flight are lost
	NetDelay      = "delay"      // add DurationMs to Client's next HTTP message (request or reply)
	NetLose       = "lose"       // lose Client's next HTTP message (request or reply)
)

// NetAction acts on one client's links.
type NetAction struct {
	Kind       string
	Client     string
	DurationMs wire.Duration
}

// Fault kinds.
const (
	FaultCrash       = "crash"        // host crash + cold restart (AGENT-2, AGENT-6)
	FaultReload      = "reload"       // client reload: drafts kept, everything else lost
	FaultClientCrash = "client-crash" // client gone for good (its link drops, no redial)
	FaultClockJump   = "clock-jump"   // client clock jumps by ByMs
	FaultClockDrift  = "clock-drift"  // client clock drift set to PPM from now on
	FaultCancelTurn  = "cancel-turn"  // the Session's running turn is cancelled (a CancelTurn command)
	// FaultInboxWrite: the Session's next inbox write fails, a storage write error (the host
	// gets wire.FailInboxWrite; a steered late reply then fails, LATE-5).
	FaultInboxWrite = "inbox-write-fail"
	// FaultHostStall: the host's timers do not fire for ByMs (its clock jumped past them,
	// or its event loop was blocked); what came due meanwhile fires at the next command
	// the host takes (its Apply fires due timers first) or when the stall ends.
	FaultHostStall = "host-stall"
)

// Crash points: where a crash lands relative to the host's effects. The zero value
// crashes between commands, at the step's time. The others arm a watcher that cuts the
// first later host Apply where the point exists (a crash can land between any two host
// effects: only the first k effects of that Apply are delivered, then the host restarts
// with Restart{CutAfter: k}). The exact rule of each point is in the package doc.
const (
	PointNow               = ""                    // between commands
	PointBeforePTCDispatch = "before-ptc-dispatch" // the next Apply that appends tool/ptc-dispatch is cut just before that record is persisted
	PointAfterPTCDispatch  = "after-ptc-dispatch"  // right after a tool/ptc-dispatch record is persisted
	PointBeforeAnswerAck   = "before-answer-ack"   // the next answer RPC is cut before its reply
	PointAfterAnswerAck    = "after-answer-ack"    // right after an answer RPC's reply
	PointBetweenClaimAdmit = "between-claim-admit" // after a reply is claimed from the inbox, before its user/message
	PointInsideWriteWindow = "inside-write-window" // while some event is appended but not yet persisted
	PointAfterEffect       = "after-effect"        // inside the next Apply, after its first Effect effects (wait notes not counted)
)

// Fault is one injected fault.
type Fault struct {
	Kind      string
	Client    string        // reload, client-crash, clock-jump, clock-drift
	Session   string        // cancel-turn, inbox-write-fail
	KeepInbox bool          // cancel-turn
	Point     string        // crash: where it lands (PointNow if empty)
	Effect    int           // crash at PointAfterEffect: how many effects survive
	ByMs      wire.Duration // clock-jump, host-stall
	PPM       int64         // clock-drift
}

// ModelConfig is how the model actor fills in what the script leaves open.
type ModelConfig struct {
	// AutoEndMs: when a step is open, the model has not ended it, and every tool call of
	// the step has its result, the model ends the step (final) AutoEndMs after the latest
	// of the step's start, the model's last command to that Session and the step's last
	// tool result, unless a scripted model command (Header, ToolCall, EndStep) for that
	// Session is due at or before then. < 0 never: the script must end every step.
	AutoEndMs wire.Duration
}

// FaultConfig is the swarm configuration of random faults: for each kind, the mean
// number of injections per simulated minute (0 = off), and the magnitudes drawn for them
// (0 = the documented default). Targets (a client, a Session) are drawn uniformly.
type FaultConfig struct {
	CrashPerMin       float64 // host crash inside the next Apply, cut at a uniform k in [0, n]
	DisconnectPerMin  float64
	ReloadPerMin      float64
	ClockJumpPerMin   float64
	PartitionPerMin   float64
	LoseHTTPPerMin    float64
	DelayHTTPPerMin   float64
	ClientCrashPerMin float64
	ClockDriftPerMin  float64
	CancelTurnPerMin  float64 // a Session the host has appended to or the script named
	// InboxWriteFailPerMin: the next inbox write of a Session (drawn as for cancel-turn)
	// fails.
	InboxWriteFailPerMin float64

	JumpMaxMs      wire.Duration // clock jumps are uniform in [-JumpMaxMs, JumpMaxMs]; default 10 000
	DriftMaxPPM    int64         // drifts are uniform in [-DriftMaxPPM, DriftMaxPPM]; default 1 000
	PartitionMaxMs wire.Duration // partitions last uniform [1, PartitionMaxMs]; default 5 000
	DelayMaxMs     wire.Duration // HTTP delays are uniform [1, DelayMaxMs]; default 2 000
}

// Defaults of the random fault magnitudes.
const (
	DefaultJumpMaxMs      = 10_000
	DefaultDriftMaxPPM    = 1_000
	DefaultPartitionMaxMs = 5_000
	DefaultDelayMaxMs     = 2_000
)

// Any reports whether some random fault is switched on.
func (f FaultConfig) Any() bool {
	return f.CrashPerMin > 0 || f.DisconnectPerMin > 0 || f.ReloadPerMin > 0 || f.ClockJumpPerMin > 0 ||
		f.PartitionPerMin > 0 || f.LoseHTTPPerMin > 0 || f.DelayHTTPPerMin > 0 || f.ClientCrashPerMin > 0 ||
		f.ClockDriftPerMin > 0 || f.CancelTurnPerMin > 0 || f.InboxWriteFailPerMin > 0
}
