package wire

import "strconv"

// ClientConfig is the configuration a scenario gives one client it runs with: what the
// scenario runner hands a client factory and what the conformance protocol's start
// message carries to an external client. Like HostConfig it holds only what a scenario
// chooses; anything an implementation adds (the reference engine's mutants) is the
// factory's own.
type ClientConfig struct {
	// Name is the client's name; the simulator addresses it by this name and a client
	// mints its stream and RPC ids from it.
	Name string
	// TickMs is the countdown's tick granularity; 0 means the peer's 1 000 ms.
	TickMs Duration
	// Seed drives the client's own randomness (the per-page-load key of unkeyed cards).
	Seed uint64
	// Drafts is the draft store's content at the first page load (what localStorage
	// already holds).
	Drafts []DraftState
}

// String is the canonical text: "client a tick=1000ms seed=7 drafts=0".
func (c ClientConfig) String() string {
	return "client " + c.Name + " tick=" + c.TickMs.String() + "ms seed=" +
		strconv.FormatUint(c.Seed, 10) + " drafts=" + strconv.Itoa(len(c.Drafts))
}
