package client

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// DefaultTickMs is the countdown's interval granularity (the peer's 1 s interval).
const DefaultTickMs = 1000

// Config configures one client.
type Config struct {
	// Name is the client's name; stream and rpc ids are minted from it.
	Name string
	// TickMs is the countdown's tick granularity; <= 0 means DefaultTickMs.
	TickMs int64
	// Seed drives the per-page-load random key of unkeyed cards (a new key per reload,
	// derived from Seed and the load count).
	Seed uint64
	// Drafts is the draft store's content at the first page load (what localStorage
	// already holds); entries that do not fit their card are dropped when read.
	Drafts []wire.DraftState
	// Mutant names a deliberate bug of the reference engine (engine/mutant); "" is the
	// correct client. The client acts on client-side mutants only; a name the registry does
	// not know is ignored here (host.New refuses it, and both get the same option).
	Mutant string
}

// Client is one answer UI (a browser tab) and its user; it implements wire.ClientPort.
type Client struct {
	name    string
	tick    int64
	seed    uint64
	now     int64
	mutants mutant.Set

	// Durable across reloads: the draft store, the page-load count and the id counters
	// (ids stay unique across reloads, so a late reply for an old page matches nothing).
	drafts  draftStore
	loads   int
	streamN int
	rpcN    int

	page page
	out  []wire.ClientEffect
	rd   reader // the client's JSON reader (its buffer is reused from text to text)
	enc  []byte // the draft encoder's buffer, reused
	// rowQs holds the questions of a one-question call while its row is computed: a row
	// keeps nothing of them, so the rows of every snapshot reuse it.
	rowQs entryBlock
}

// page is everything a reload loses.
type page struct {
	key       string // the page's random key (unkeyed card keys)
	unkeyedN  int
	cardN     int
	pubN      int
	seqN      int // deliveries and streams, in the order they appear
	gen       int
	connected bool
	// failing: a $events/result of the live generation failed. The generation's deliveries
	// have aborted; it ends (claims cancelled, Dial) once every outcome it sent has its
	// HTTP reply, so no claim is released while its outcome may still be on its way (CLAIM-2).
	failing bool

	deliveries table[*delivery] // current generation, by event id
	streams    table[*stream]   // open claim streams, by stream id
	rpcs       table[*rpcCall]  // HTTP requests awaiting their reply

	cards []*card // creation order
	// timed are the deadlines the page's cards set, earliest first (advance and
	// NextDeadline read the top only)
	timed    deadlines
	byKey    table[*card]
	sessions table[*sessionView]
	order    []string       // session ids, sorted
	views    []*sessionView // the sessions of order, in the same order

	focus         *card // the card whose answer surface has the page's focus
	windowBlurred bool
	torn          bool // the questions UI plugin was torn down (ActTeardown)
}

// sessionView is what the client knows of one Session.
type sessionView struct {
	id string
	// The log is log followed by the events of more (updates appended as they came, shared
	// with them); n counts them all. Read it with events.
	log        []session.Event
	more       [][]session.Event
	n          int
	questions  wire.QuestionsView
	qidx       *viewIndex // questions by call id, nil until read (viewindex.go)
	inbox      wire.InboxView
	reconciled bool // a projection arrived in this page load
	unbound    bool // the Session lost its binding: its projection is not followed (wire.ActUnbind)
	// prunePending: the seat card mounted before the Session's first projection of this
	// page load (a replayed request after a reload), so its prune waits for that
	// projection (DRAFT-3).
	prunePending bool
	seat         *card // the card the composer rendered after the last input
	// best is seatOf's answer while bestKnown: publishing a card updates it at once (the
	// latest published wins among equals), hiding or removing it forgets it, so with
	// thousands of open cards the seat is searched for only when its card left
	best      *card
	bestKnown bool
	expanded  map[string]bool
	broken    bool // an update left a gap in the log: further appends are ignored until a reset
}

// follows reports whether events are the ones right after the known log (seqs n, n+1, …).
func (s *sessionView) follows(events []session.Event) bool {
	for i, e := range events {
		if e.Seq != s.n+i {
			return false
		}
	}
	return true
}

// events is the whole log as one slice (the chunks are joined once, when read).
func (s *sessionView) events() []session.Event {
	if len(s.more) == 0 {
		return s.log
	}
	flat := make([]session.Event, 0, s.n)
	flat = append(flat, s.log...)
	for _, m := range s.more {
		flat = append(flat, m...)
	}
	clear(s.more)
	s.log, s.more = flat, s.more[:0]
	return flat
}

// New returns a client at its first page load, not connected.
func New(cfg Config) *Client {
	c := &Client{name: cfg.Name, tick: cfg.TickMs, seed: cfg.Seed, drafts: newDraftStore(cfg.Drafts)}
	c.mutants, _ = mutant.Parse(cfg.Mutant)
	if c.name == "" {
		c.name = "client"
	}
	if c.tick <= 0 {
		c.tick = DefaultTickMs
	}
	c.newPage()
	return c
}

func (c *Client) newPage() {
	c.loads++
	c.page = page{
		key:   pageKey(c.seed, c.loads),
		timed: deadlines{tick: c.tick},
	}
	if c.mutants.Has(mutant.PageKeyPerClient) {
		c.page.key = pageKey(c.seed, 1) // MUTANT page-key-per-client: drawn once, reused by every page load
	}
}

func (c *Client) emit(e wire.ClientEffect) {
	if c.out == nil {
		c.out = make([]wire.ClientEffect, 0, 8)
	}
	c.out = append(c.out, e)
}

func (c *Client) mintStream() string {
	c.streamN++
	return c.name + "-s" + strconv.Itoa(c.streamN)
}

func (c *Client) mintRPC() string {
	c.rpcN++
	return c.name + "-r" + strconv.Itoa(c.rpcN)
}

func itoa(n int) string { return strconv.Itoa(n) }

// Apply processes one input at client time now (wire.ClientPort). Countdown ticks due at
// or before now run first. A user action that is impossible returns an error; it is
// checked before any due tick runs, so a refused action returns no effects and changes
// nothing. In the one case where a tick due in the same call makes the action impossible
// (Take time at the very tick that expires the card), the tick's effects are returned
// together with the error: time passed, the action did nothing.
func (c *Client) Apply(at wire.Time, in wire.ClientInput) ([]wire.ClientEffect, error) {
	now := at.Ms() // the client counts in plain milliseconds inside
	c.out = c.out[:0]
	var run func()
	if u, ok := in.(wire.User); ok {
		var err error
		if run, err = c.plan(u.Action); err != nil {
			return nil, err
		}
	}
	if c.advance(now) {
		run = nil // a tick expired a card: the action is planned again on the new state
	}
	switch in := in.(type) {
	case wire.FromHost:
		c.onFrame(in.Frame)
	case wire.FromHTTP:
		c.onHTTP(in.RPCID, in.Envelope)
	case wire.LinkDown:
		c.onLinkDown()
	case wire.Reload:
		c.newPage()
		c.emit(wire.Dial{})
	case wire.User:
		if run == nil {
			var err error
			if run, err = c.plan(in.Action); err != nil {
				c.settleView()
				return c.out, err
			}
		}
		run()
	case wire.ClientTick:
	}
	c.settleView()
	return c.out, nil
}

// advance moves the client clock to now and runs the countdown ticks that are due: a
// tick expires a card when its deadline has passed (CD-1, CLAIM-7), in tick order. It
// reports whether a card expired (nothing else a user action's plan reads changes here).
func (c *Client) advance(now int64) (expired bool) {
	c.now = now
	for {
		e, ok := c.page.timed.next(c.ticking)
		if !ok || e.at > now {
			return expired
		}
		c.page.timed.pop()
		due := e.card
		if !due.expirable() {
			due.hasDeadline = false
			continue
		}
		c.expire(due)
		expired = true
	}
}

// ticking reports whether k is a live card of this page with a local deadline running.
func (c *Client) ticking(k *card) bool {
	return k.hasDeadline && k.timedList != nil && k.load == c.loads
}

// NextDeadline is the client time of the next tick that expires a card (wire.ClientPort).
// Ticks before it only repaint the countdown, which State computes from the clock.
func (c *Client) NextDeadline() (wire.Time, bool) {
	e, ok := c.page.timed.next(c.ticking)
	return wire.Time(e.at), ok
}

// State snapshots the client at the client time of its last input (wire.ClientPort).
func (c *Client) State() wire.ClientState { return c.StateAt(wire.Time(c.now)) }

// StateAt snapshots the client as it shows at client time now (wire.ClientPort): running
// countdowns read deadline − now. It changes nothing: due ticks run only in Apply.
func (c *Client) StateAt(at wire.Time) wire.ClientState {
	now := at.Ms()
	st := wire.ClientState{Client: c.name, Gen: c.page.gen, Connected: c.page.connected, Drafts: c.drafts.states()}
	if n := len(c.page.cards); n > 0 {
		st.Cards = make([]wire.CardState, 0, n)
		for _, k := range c.page.cards {
			s := c.page.sessions.at(k.session)
			st.Cards = append(st.Cards, k.snapshot(now, s != nil && s.seat == k, c.page.focus == k))
		}
		slices.SortFunc(st.Cards, func(a, b wire.CardState) int { return strings.Compare(a.Key, b.Key) }) // keys are unique
	}
	for _, s := range c.page.views {
		st.Rows = join(st.Rows, c.rows(s))
		st.Nodes = join(st.Nodes, nodes(&c.rd, s, c.mutants))
		st.Conversation = join(st.Conversation, conversation(s, c.mutants))
	}
	return st
}

// join is append(dst, more...), taking more itself when dst is empty (the one-Session
// case): the lists are fresh, so nothing else holds them.
func join[T any](dst, more []T) []T {
	if len(dst) == 0 && len(more) > 0 {
		return more
	}
	return append(dst, more...)
}

func (c *Client) sessionOf(id string) *sessionView {
	if s := c.page.sessions.at(id); s != nil {
		return s
	}
	s := &sessionView{id: id}
	c.page.sessions.set(id, s)
	i := sort.SearchStrings(c.page.order, id)
	c.page.order = slices.Insert(c.page.order, i, id)
	c.page.views = slices.Insert(c.page.views, i, s)
	return s
}

// settleView recomputes each Session's composer seat after an input: a card that leaves
// the seat unmounts (its focus pause is released), a card that takes it mounts (the
// Session's drafts are pruned to its live cards, DRAFT-3) and may autofocus (CD-8). A
// mount before the Session's first projection of the page load prunes when that projection
// has been reconciled, so the cards it recreates keep their drafts and stale ones go.
func (c *Client) settleView() {
	for i, id := range c.page.order {
		s := c.page.views[i]
		seat := c.seatOf(id)
		if seat != s.seat {
			if old := s.seat; old != nil && c.page.focus == old {
				c.page.focus = nil
				old.releaseFocus(c.now)
			}
			s.seat = seat
			if seat != nil {
				c.mount(s, seat)
			}
		} else if seat != nil && s.prunePending && s.reconciled {
			c.mount(s, seat) // the projection the mount waited for has come (DRAFT-3)
		}
		if seat != nil {
			c.autofocus(seat)
		}
	}
}

// seatOf is the published card of the Session with the highest precedence, the latest
// published among equals.
func (c *Client) seatOf(session string) *card {
	s := c.page.sessions.at(session)
	if s == nil {
		return c.findSeat(session)
	}
	if !s.bestKnown {
		s.best, s.bestKnown = c.findSeat(session), true
	}
	return s.best
}

// seatPublished updates the seat of k's Session after k was published: the latest
// published card takes it unless a higher-precedence card holds it.
func (c *Client) seatPublished(k *card) {
	if k.load != c.loads || k.timedList == nil {
		return // not a card of this page (findSeat reads page.cards only)
	}
	if s := c.page.sessions.at(k.session); s != nil && s.bestKnown {
		if s.best == nil || k.precedence() >= s.best.precedence() {
			s.best = k
		}
	}
}

// seatLeft records that k was hidden or removed: if it held its Session's seat, the seat
// is searched for again.
func (c *Client) seatLeft(k *card) {
	if s := c.page.sessions.at(k.session); s != nil && s.best == k {
		s.best, s.bestKnown = nil, false
	}
}

func (c *Client) findSeat(session string) *card {
	var best *card
	for _, k := range c.page.cards {
		if k.session != session || !k.published {
			continue
		}
		if best == nil || k.precedence() > best.precedence() || (k.precedence() == best.precedence() && k.pubSeq > best.pubSeq) {
			best = k
		}
	}
	return best
}

func (c *Client) mount(s *sessionView, k *card) {
	if !s.reconciled {
		s.prunePending = true
		return
	}
	s.prunePending = false
	if c.mutants.Has(mutant.MountSkipsPrune) {
		return // MUTANT mount-skips-prune
	}
	c.drafts.prune(s.id, func(key string) bool {
		o := c.page.byKey.at(key)
		return o != nil && o.session == s.id
	})
}

// autofocus focuses the optionless text field of the seat card once per question
// index, only when an answer channel is ready, no countdown exists and the card is not
// locked (CD-8, docs/PEER.md §6.6).
func (c *Client) autofocus(k *card) {
	// MUTANT autofocus-ignores-countdown: the countdown is not consulted.
	if k.channel() == wire.ChannelNone || k.timedWait && !c.mutants.Has(mutant.AutofocusIgnoresCountdown) || k.busy != viaNone || k.kind != kindQuestion ||
		c.page.windowBlurred || len(k.questions[k.index].Options) > 0 || k.autofocused[k.index] {
		return
	}
	k.autofocused[k.index] = true
	if c.page.focus != nil && c.page.focus != k {
		c.page.focus.releaseFocus(c.now)
	}
	c.page.focus = k
	k.holdFocus(c.now)
}
