package harness

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

// lossyClient is a client that breaks after its n-th Apply (an external client that
// crashed) and counts its Close.
type lossyClient struct {
	wire.ClientPort
	n, applies, closes int
	late               bool // lost only as wire.LostOf tells after the run (a broken state reply)
}

func (c *lossyClient) Lost() *wire.PortLost {
	if c.late {
		return &wire.PortLost{Err: errors.New("the state came back malformed")}
	}
	return nil
}

func (c *lossyClient) Apply(now wire.Time, in wire.ClientInput) ([]wire.ClientEffect, error) {
	c.applies++
	if c.n > 0 && c.applies >= c.n {
		return nil, &wire.PortLost{Err: errors.New("the client exited")}
	}
	return c.ClientPort.Apply(now, in)
}
func (c *lossyClient) Close() error { c.closes++; return nil }

// The client seam: a run takes its clients from Options.Client. Reference clients behind
// a wrapper give the golden transcript; a client lost at its 3rd Apply makes the run lost
// (named after the client, no golden written), and every client is closed once.
func TestClientSeam(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "answered-by-a.yaml"), []byte(clientScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	es, err := Load([]string{dir})
	if err != nil || len(es) != 1 {
		t.Fatalf("%v %+v", err, es)
	}
	e := es[0]
	if g := Update(RunEntry(e, DefaultOptions())); g.State != "updated" {
		t.Fatalf("update: %+v", g)
	}
	want, _ := os.ReadFile(e.GoldenPath)
	var made []*lossyClient
	factory := func(n int) ClientFactory {
		return func(cfg wire.ClientConfig) (wire.ClientPort, error) {
			p, err := ReferenceClient("")(cfg)
			c := &lossyClient{ClientPort: p, n: n}
			made = append(made, c)
			return c, err
		}
	}
	opts := DefaultOptions()
	opts.Client = factory(0)
	r := RunEntry(e, opts)
	if r.Status() != Passed || r.Lost != nil {
		t.Fatalf("wrapped reference clients: %v %v %v", r.Status(), r.Failures, r.Golden)
	}
	if len(made) == 0 || made[0].closes != 1 {
		t.Fatalf("clients made %d, closed %v", len(made), made)
	}
	made = nil
	opts.Client = factory(3)
	r = RunEntry(e, opts)
	Update(r)
	if r.Lost == nil || len(r.Failures) == 0 || !strings.Contains(r.Failures[0].Msg, "client a was lost") {
		t.Fatalf("lost client: %v %v", r.Lost, r.Failures)
	}
	if made[0].closes != 1 {
		t.Fatal("the lost client is closed once", made[0].closes)
	}
	if got, _ := os.ReadFile(e.GoldenPath); string(got) != string(want) {
		t.Fatal("a run that lost its client wrote its golden")
	}
	opts.Client = func(cfg wire.ClientConfig) (wire.ClientPort, error) {
		p, _ := ReferenceClient("")(cfg)
		return &lossyClient{ClientPort: p, late: true}, nil
	}
	if r = RunEntry(e, opts); r.Lost == nil || !strings.Contains(r.Failures[0].Msg, "client a was lost: the state came back malformed") {
		t.Fatalf("a client lost after the run: %v %v", r.Lost, r.Failures)
	}
	opts.Client = func(cfg wire.ClientConfig) (wire.ClientPort, error) { return nil, errors.New("cannot start") }
	if r = RunEntry(e, opts); r.Lost == nil || !strings.Contains(r.Failures[0].Msg, "client a was lost: cannot start") {
		t.Fatalf("a client the factory cannot build: %v %v", r.Lost, r.Failures)
	}
}

const clientScenario = `name: answered-by-a
summary: Client a answers the timed question in time.
covers: [CLAIM-1]
mode: timed
timeout: 5
clients:
  a: {latency: 10ms}
steps:
  - {at: 0s, model: {prompt: go}}
  - {at: 0s, model: header}
  - {at: 0s, model: {call: c1, ask: [{id: pkg, question: "Which?", options: [npm, bun]}]}}
  - {at: 1s, a: {choose: bun}}
  - {at: 1s, a: submit}
expect:
  - {at: end, tool-result: c1, answers: {pkg: bun}}
`

// A client's hints are its UI's own words: with AnyHintText a hint: expectation holds for
// any hint the card shows (it still needs one: card.Hint != ""); without it the words count.
func TestAnyHintTextAcceptsAnyWording(t *testing.T) {
	var e Entry
	for _, x := range Library("") {
		if strings.HasSuffix(x.Path, "card-resubmit-after-work-continued.yaml") {
			e = x
		}
	}
	if e.Data == nil {
		t.Fatal("the library scenario is gone")
	}
	const hint = `hint: "The answer did not arrive before work continued; submit it again."`
	if !strings.Contains(string(e.Data), hint) {
		t.Fatal("the scenario no longer asserts the resubmit hint")
	}
	e.Data = []byte(strings.Replace(string(e.Data), hint, `hint: "La réponse n'est pas arrivée."`, 1))
	if r := RunEntry(e, Options{}); len(r.Failures) == 0 {
		t.Fatal("another wording passed without AnyHintText")
	}
	if r := RunEntry(e, Options{AnyHintText: true}); len(r.Failures) != 0 {
		t.Fatalf("another wording failed with AnyHintText: %v", r.Failures)
	}
}
