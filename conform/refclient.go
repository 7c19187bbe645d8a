package conform

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/twosettle/twosettle/engine/client"
	"github.com/twosettle/twosettle/engine/mutant"
	"github.com/twosettle/twosettle/engine/wire"
)

// RefClientName is the name the reference client gives in its hello.
const RefClientName = "twosettle-refclient"

// ServeClient is `conform refclient`: the reference client (engine/client) served over
// the protocol on in and out, until bye or the end of in. It is the example adapter of
// docs/PROTOCOL.md "Clients": an implementer's adapter does what this function does,
// with their answer UI in place of client.New. mutant switches on one of the reference
// engine's client-side bugs for every run ("" none); a name that is not a client-side
// mutant is an error before the hello.
func ServeClient(in io.Reader, out io.Writer, mut string, version string) error {
	if mut != "" {
		info, ok := mutant.Lookup(mut)
		if !ok {
			return fmt.Errorf("unknown mutant %q", mut)
		}
		if info.Side != mutant.Client {
			return fmt.Errorf("mutant %q is a %s-side bug, not a client's", mut, info.Side)
		}
	}
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	// 1. The runner's hello, then ours: protocol, name, version, no features.
	if _, err := readRunnerHello(r, "refclient", "client"); err != nil {
		return err
	}
	if err := emit(w, append(appendHelloStart(nil, RefClientName, version), `,"features":[]}`+"\n"...)); err != nil {
		return err
	}
	var c *client.Client // the current run's client; nil before the first start
	return serveLines(r, w, func(b, line []byte) ([]byte, bool, error) {
		var req struct {
			Type   string          `json:"type"`
			N      int64           `json:"n"`
			Now    int64           `json:"now"`
			At     int64           `json:"at"`
			Client json.RawMessage `json:"client"`
			Input  json.RawMessage `json:"input"`
		}
		if err := decodeRequest(line, &req, "refclient"); err != nil {
			return b, false, err
		}
		switch req.Type {
		case TypeBye:
			// 2. bye: exit cleanly.
			return b, true, nil
		case TypeStart:
			// 3. start: a fresh client (a new browser tab with its store) for one run.
			cfg, err := wire.DecodeClientConfig(req.Client)
			if err != nil {
				b = errorLine(b, req.N, "bad start client config: "+err.Error())
				break
			}
			c = client.New(client.Config{Name: cfg.Name, TickMs: cfg.TickMs.Ms(), Seed: cfg.Seed, Drafts: cfg.Drafts, Mutant: mut})
			b = append(appendReplyStart(b, TypeStarted, req.N), "}\n"...)
		case TypeApply:
			// 4. apply: one input at the client's clock; the reply carries the effects in
			//    order, the refusal (a user action the UI cannot take) and the client's
			//    next deadline (the tick that expires a card).
			if c == nil {
				b = errorLine(b, req.N, "apply before start")
				break
			}
			in, err := wire.DecodeClientInput(req.Input)
			if err != nil {
				b = errorLine(b, req.N, "bad input: "+err.Error())
				break
			}
			effs, aerr := c.Apply(wire.Time(req.Now), in)
			at, ok := c.NextDeadline()
			if b, err = appendApplied(b, req.N, effs, wire.AppendClientEffectJSON, aerr, at, ok); err != nil {
				return b, false, fmt.Errorf("refclient: %v", err)
			}
		case TypeState:
			// 5. state: what the UI shows at client time at.
			if c == nil {
				b = errorLine(b, req.N, "state before start")
				break
			}
			b = append(appendReplyStart(b, TypeState, req.N), `,"state":`...)
			b = wire.AppendClientStateJSON(b, c.StateAt(wire.Time(req.At)))
			b = append(b, "}\n"...)
		default:
			b = errorLine(b, req.N, "unknown request type "+strconv.Quote(req.Type))
		}
		return b, false, nil
	})
}
