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

// Kind names the step's kind (StepKinds): its actor, or "user" for a client's user; ""
// for a step with no actor.
func (s *Step) Kind() string {
	if k := stepKindOf(s); k != nil {
		return k.name
	}
	return ""
}

// Actor names the step's actor: "model", "host", "service", "net" or the client's name.
func (s *Step) Actor() string {
	if k := stepKindOf(s); k != nil && !k.byClient {
		return k.name
	}
	return s.Client
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

// AnswerItem is the answer to one question: selected labels and an optional custom text.
// An item with neither is a skip.
type AnswerItem struct {
	ID       string
	Selected []string
	Custom   *string
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
