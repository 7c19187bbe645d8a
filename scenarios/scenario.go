package scenarios

// Scenario is one scenario file: a name, a summary, the requirement ids it covers, the
// configuration of the reference host and its clients, timed steps addressed to actors,
// expectations, and hints for exploring around it. Generated and shrunk scenarios are
// values of this type and are written with Encode in the same YAML a person writes.
//
// Zero values mean "the default" throughout, so a generator only sets what it cares
// about; Validate reports what is inconsistent.
type Scenario struct {
	Name    string
	Summary string
	Covers  []string

	// Seed is the run's seed; 0 means DefaultSeed.
	Seed uint64
	// Mode is the ask_user_question tool mode: "legacy" (the default, "" too) or "timed".
	Mode string
	// Timeout is the tool's configured default timeout in whole seconds (-1: indefinite);
	// nil means the tool's own default (120).
	Timeout *int64
	// WriteWindow is the host's write-behind window: nil is the host's default (the
	// peer's 200 ms), 0 writes every event through as it is appended.
	WriteWindow *Duration
	// AutoEnd is how long after a step opens the model ends it when the script gives it
	// nothing more to do; Never: the script ends every step; 0: the simulator's default.
	AutoEnd Duration
	// Limit is the virtual time limit of the run; 0 runs to quiescence.
	Limit Duration

	// Sessions are opened at time 0 in this order; none means one root Session "s1".
	Sessions []Session
	// Clients are the answer UIs, in the order the file lists them.
	Clients []Client

	Steps   []Step
	Expect  []Expectation
	Explore *Explore

	// Pos is where the scenario came from (zero for generated values).
	Pos Pos
}

// DefaultSeed is the seed of a scenario that names none.
const DefaultSeed = 1

// DefaultSession is the Session of a scenario that declares none.
const DefaultSession = "s1"

// Tool modes.
const (
	ModeLegacy = "legacy"
	ModeTimed  = "timed"
)

// Session is a Session opened at time 0: a runtime root, or a child owned by the live
// agent of Owner (DELEGATED_CALLER).
type Session struct {
	Name  string
	Owner string
	Pos   Pos
}

// Client is one answer UI and its network link.
type Client struct {
	Name string
	// Latency is the delay of the ordered mux link (events and streams); zero: instant.
	Latency Latency
	// HTTP is the delay of the request/response channel; nil: the same as Latency.
	HTTP *Latency
	// Skew is the client's clock offset against the host's; Drift its rate error in ppm.
	Skew  Duration
	Drift int64
	// Tick is the countdown's tick; 0: the client's default (1s, as the peer).
	Tick Duration
	// Offline: the client does not connect at time 0 (a net reconnect step connects it).
	Offline bool
	// Hold: an answerer that takes every delivery and holds it, never claiming or
	// answering, with no user (inject steps answer for it).
	Hold bool
	// Reconnect is how long the client waits to dial again after losing its link; nil:
	// it never redials by itself.
	Reconnect *Duration
	Pos       Pos
}

// Step is one timed action addressed to one actor. Exactly one of Model, Host, Service,
// Net or User is set; User goes with Client.
type Step struct {
	At Duration
	// Session is the Session a model, service or user step is about; "" is the first one.
	Session string

	Model   *ModelAction
	Host    *HostAction
	Service *ServiceCall
	Net     *NetAction
	Client  string
	User    *UserAction
	// Inject delivers a client's outcome to the host as another client implementation
	// would send it (the protocol level, below the reference client).
	Inject *Inject

	// Refused: the step is expected to be refused (a disabled control, a command the
	// host cannot take now) with an error containing this text. A refusal that is not
	// expected makes the scenario impossible (invalid input); an expected one that does
	// not happen is a failed expectation.
	Refused string

	Pos Pos
}

// Actor names the step's actor: "model", "host", "service", "net" or the client's name.
func (s Step) Actor() string {
	if k := stepKindOf(&s); k != nil && !k.byClient {
		return k.name
	}
	return s.Client
}

// Actor keys of a step.
const (
	ActorModel   = "model"
	ActorHost    = "host"
	ActorService = "service"
	ActorNet     = "net"
	ActorInject  = "inject"
)

// Inject is one $events/result a client sends for a delivery: next, an answer batch, or a
// rejection "Name: message" / "Name/CODE: message"; or a claim stream it opens (Attach).
type Inject struct {
	Client   string
	Gen      int // the connection generation (0: 1)
	Event    string
	Next     bool
	Answers  []AnswerItem
	HasAns   bool
	Rejected string
	// Attach, instead of an outcome: the client opens a claim stream (attach-wait) for
	// this call in generation Gen, with no event (a claim from a generation that is gone
	// is already aborted when it attaches).
	Attach string
}

// Model action kinds.
const (
	ModelHeader  = "header"   // the model requests a header (the host's tool schemas, or Tools)
	ModelAsk     = "ask"      // call ask_user_question
	ModelRun     = "run"      // call run_code with sub-calls
	ModelSleep   = "sleep"    // call the sleep tool, which takes For of virtual time
	ModelTool    = "tool"     // call any other (instant) tool
	ModelEndStep = "end-step" // end the open step
	ModelEndTurn = "end-turn" // end the open step and the turn (final)
	ModelCancel  = "cancel"   // the turn is cancelled (reason user)
	ModelPrompt  = "prompt"   // a user message for the next turn
	ModelSteer   = "steer"    // a user message for the next step
)

// Tool names the reference host knows.
const (
	ToolAsk   = "ask_user_question"
	ToolRun   = "run_code"
	ToolSleep = "sleep"
)

// ModelAction is what the model actor does (and, for prompt, steer and cancel, what the
// person at the host does; they reach the agent the same way).
type ModelAction struct {
	Kind string
	// Call is the call id of ask, run, sleep and tool.
	Call string
	// Tools is the raw JSON of a header's tools; "" is the host's registered schemas.
	Tools string
	// Ask: the questions and the model's timeout argument as raw JSON ("" leaves it out).
	Questions []Question
	Timeout   string
	// Calls are the sub-calls of run, run in order with ids "<call>:ptc:<n>".
	Calls []SubCall
	// Args is the raw argument string: of a tool call, or of an ask or run written raw
	// (then Questions, Timeout and Calls are unused), so malformed arguments can be written
	// as the model would send them.
	Args string
	// For is how long a sleep takes.
	For Duration
	// Name is the tool name of a tool call ("" Args means {}).
	Name string
	// Text is the message of prompt and steer.
	Text string
	// Source is the recorded source of a prompt's or steer's message; the zero value is the
	// user's own message. Set, it models input from another producer or from history.
	Source MessageSource
	// KeepInbox: cancel keeps the inbox (otherwise each queued message is discarded).
	KeepInbox bool
}

// MessageSource is a message's source as another producer or an older host recorded it
// (session.Source): kind user-question-reply with call and outcome answered is a late
// reply (NODE-1), whatever its text.
type MessageSource struct {
	Kind    string
	Call    string // "" left out
	Outcome string // "" left out
}

// Sub-call kinds inside run.
const (
	SubAsk   = "ask"
	SubSleep = "sleep"
	SubTool  = "tool"
)

// SubCall is one call a run_code program makes: the same kinds as a model call (ask,
// sleep, tool) without a call id.
type SubCall struct {
	Kind      string
	Questions []Question
	Timeout   string
	Args      string
	For       Duration
	Name      string
	Pos       Pos
}

// Question is one question of a batch as a scenario writes it.
type Question struct {
	ID       string
	Question string
	Header   string // "" left out
	Detail   string // "" left out (service asks only: the model's schema has no detail)
	Options  []Option
	Multi    bool
	// PlanReview is the approve label of a plan-review intent (service asks only).
	PlanReview string
}

// Option is one answer option.
type Option struct {
	Label       string
	Description string // "" left out
}

// Host action kinds.
const (
	HostRestart = "restart" // an orderly cold restart between commands (AGENT-2)
	HostCrash   = "crash"   // a crash at a named point, then a cold restart (AGENT-6)
	HostOpen    = "open"    // open a Session (a root, a child, or a fork)
	HostClose   = "close"   // dispose a Session's live agent; its log stays
	// HostFailInboxWrite: a storage fault, the Session's next inbox write fails (LATE-5).
	HostFailInboxWrite = "fail-inbox-write"
	// HostAppend: a Session event written by hand (wire.AppendEvent): the log, the
	// projection and the reservations see it; the agent's live state does not change.
	HostAppend = "append"
	// HostClaimReply: the service is told the reply queued for Call was claimed into
	// Turn (wire.ClaimReply), without the claim itself.
	HostClaimReply = "claim-reply"
	// HostStall: the host's timers do not fire for For (its clock jumped past them, or
	// its event loop was blocked): what comes due fires at its next command or when the
	// stall ends. A harness fault like crash.
	HostStall = "stall"
)

// Crash points (see sim.Point*). "now" crashes between commands at the step's time.
var CrashPoints = []string{
	"now", "before-ptc-dispatch", "after-ptc-dispatch", "before-answer-ack",
	"after-answer-ack", "between-claim-admit", "inside-write-window", "after-effect",
}

// HostAction acts on the host as a whole.
type HostAction struct {
	Kind string
	// Point is where a crash lands; Effects how many effects survive at after-effect.
	Point   string
	Effects int
	// Open, Close: the Session; Owner makes it a child; Fork/Through make it a fork.
	Session string
	Owner   string
	Fork    string
	Through int
	// Event is append's event: the JSON object of the protocol's event form
	// (docs/protocol/event.schema.json) without seq and time, which are the host's.
	Event string
	// ClaimReply: the call whose queued reply is claimed, and the turn.
	Call string
	Turn int
	// Stall: how long the host's timers do not fire.
	For Duration
}

// Service call kinds: the harness calls the question service directly, not through the
// model tool (the service contract: ASK, CALLER, LATE).
const (
	ServiceAsk      = "ask"
	ServiceAskTimed = "ask-timed"
	ServiceAnswer   = "answer"
)

// Agent selectors of a service call.
const (
	AgentLive  = "live"
	AgentStale = "stale"
	AgentNone  = "none"
)

// ServiceCall is one direct call to the question service. ID names its result for
// expectations ("" gets d1, d2, ... in step order).
type ServiceCall struct {
	Kind string
	ID   string
	// Agent selects the caller: live ("" too), stale or none.
	Agent     string
	Questions []Question // ask, ask-timed
	// Call: ask-timed and answer: the call id; ask: the wait's call id ("" no wait).
	Call string
	// Timed: ask with a timed wait {callId, timed: true}.
	Timed bool
	// Timeout: ask-timed's timeout in ms; nil: 120s.
	Timeout *Duration
	// Aborted: the request's signal is already aborted.
	Aborted bool
	// Answers: answer's batch.
	Answers []AnswerItem
	// Body is the raw JSON body; when set it replaces Questions, Call, Timed, Timeout,
	// Aborted and Answers, so malformed requests can be written as they are.
	Body string
}

// AnswerItem is the answer to one question: selected labels and an optional custom text.
// An item with neither is a skip.
type AnswerItem struct {
	ID       string
	Selected []string
	Custom   *string
}

// Net action kinds (see sim.Net*).
const (
	NetDisconnect = "disconnect"
	NetReconnect  = "reconnect"
	NetPartition  = "partition"
	NetDelay      = "delay"
	NetLose       = "lose"
)

// NetAction acts on one client's links.
type NetAction struct {
	Kind   string
	Client string
	// For is how long a partition lasts; By how much a delay adds.
	For Duration
	By  Duration
}

// User action kinds: the wire.Act* kinds, plus what happens to the client as a whole.
const (
	UserFocus       = "focus"
	UserBlur        = "blur"
	UserType        = "type"
	UserChoose      = "choose"
	UserSkip        = "skip"
	UserNext        = "next"
	UserPrev        = "prev"
	UserTakeTime    = "take-time"
	UserSubmit      = "submit"
	UserHide        = "hide"
	UserClose       = "close"
	UserReopen      = "reopen"
	UserDiscard     = "discard"
	UserWindowBlur  = "window-blur"
	UserWindowFocus = "window-focus"
	UserDelegate    = "delegate"   // the UI hands the card's request on (CLAIM-4)
	UserTeardown    = "teardown"   // the questions UI plugin is torn down (CARD-12)
	UserContinue    = "continue"   // the guarded Continue: the primary button or Enter
	UserToggleRow   = "toggle-row" // the tool row's own expand/collapse toggle
	UserUnbind      = "unbind"     // the step's Session leaves the client's view (not followed)
	UserBind        = "bind"       // the step's Session is bound again (reconciled at once)
	UserReload      = "reload"     // the page reloads: drafts survive, the rest is lost
	UserCrash       = "crash"      // the client is gone for good
	UserClock       = "clock"      // the client's clock jumps by By
	UserDrift       = "drift"      // the client's clock drift becomes PPM
	// UserInput delivers Input, the JSON of a client input (docs/PROTOCOL.md "Clients"),
	// to the client as it is: a frame or a reply as a real host may send it.
	UserInput = "input"
)

// UserAction is one action of a client's user (or of its browser).
type UserAction struct {
	Kind string
	// Card names the card by call id ("" the card in the composer seat; "#N" the N-th
	// unkeyed card); Question a question id ("" the current one).
	Card     string
	Question string
	// Label is what choose clicks; Text what type types.
	Label string
	Text  string
	// By is a clock jump; PPM a new drift.
	By  Duration
	PPM int64
	// Input is the raw client input of an input step.
	Input string
}

// The expectation kinds (Expect*) are declared in expect_<kind>.go, one file each.

// Expectation is one check, at a virtual time or at the end of the run. Kind says what is
// checked and Subject which one (a call id, a result id, a client, a text); the other
// fields are assertions, and only the ones set are checked.
type Expectation struct {
	// At is when to look; End: at the end of the run instead.
	At  Duration
	End bool

	Kind    string
	Subject string
	// Session and Client narrow the check (defaults: the first Session, the only client).
	Session string
	Client  string

	// Outcomes (tool-result, result, reply).
	Pending bool
	Answers []AnswerItem
	HasAns  bool // Answers is asserted (an empty batch is a valid assertion)
	Error   string
	Value   string
	Text    string
	// Contains: a substring of the result text, card hint, row line or draft JSON.
	Contains string
	// None: the subject does not exist (no result yet, no card, no wait...).
	None bool
	// Time: the matching record's or event's virtual time.
	Time *Duration
	// Count: how many records or events match (nil: at least one).
	Count *int

	// Host wait.
	Claims   *int
	Deadline *Duration
	Timer    string // a duration, or "none"

	// Reservation.
	Claimed *bool

	// Agent.
	Live  *bool
	Root  *bool
	Phase string

	// Card and row.
	State     string
	Wait      string
	Countdown string // "3s running", "2.5s paused" or "none"
	Channel   string
	Shown     *bool
	Closed    *bool
	Busy      *bool
	Hint      string
	Seat      *bool
	Focus     *bool
	CardKind  string
	Draft     string
	Summary   string
	Action    *string // "" asserts no action
	Expanded  *bool   // a row's disclosure is open
	// Node: the reply's message id and its source's outcome (its time is Time).
	Message string
	Outcome string
	// Row transcript or node lines, exactly.
	Lines []string
	// Node raw text.
	Raw *string

	// View: the questions of one active call (ViewQuestions nil: not asserted). A card and
	// a node check their questions with the same field (questions:, no call:).
	ViewCall      string
	ViewQuestions []Question

	// Link.
	Connected *bool
	Gen       *int

	Pos Pos
}

// Explore says how to explore around a scenario: how many seeds, how much jitter on step
// times, which random faults (mean injections per simulated minute) and when they stop.
type Explore struct {
	Seeds  int
	Jitter Duration
	Faults Faults
	Healed Duration
	Pos    Pos
}

// Faults are rates of random faults per simulated minute (0: off).
type Faults struct {
	Crash      float64
	Disconnect float64
	Reload     float64
	ClockJump  float64
	Partition  float64
	Lose       float64
}

// Pos is a position in a scenario file.
type Pos struct {
	File      string
	Line, Col int
}
