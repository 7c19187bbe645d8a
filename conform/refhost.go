package conform

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/twosettle/twosettle/engine/host"
	"github.com/twosettle/twosettle/engine/wire"
)

// RefHostName is the name the reference host gives in its hello.
const RefHostName = "twosettle-refhost"

// refhostProfiles are the profiles conform refhost serves (its hello's "profiles").
var refhostProfiles = []string{ProfileHost, ProfileProjection, ProfileWait}

// Serve is `conform refhost`: the reference host (engine/host) served over the protocol
// on in and out, until bye or the end of in. It is the example adapter of
// docs/PROTOCOL.md: an implementer's adapter does what this function does, with their
// host in place of host.New. mutant switches on one of the reference engine's named bugs
// for every run ("" none); an unknown name is an error before the hello.
func Serve(in io.Reader, out io.Writer, mutant string, version string) error {
	// Refuse a bad mutant before speaking: a host that cannot serve must not say hello.
	if _, err := host.New(host.Config{Mutant: mutant}); err != nil {
		return err
	}
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	// 1. The runner's hello comes first; answer with ours: protocol, name, version and
	//    every feature (the reference host has them all).
	line, err := readRequest(r)
	if err != nil {
		return err
	}
	var hello struct {
		Type, Protocol, Runner, Profile string
	}
	if err := json.Unmarshal(line, &hello); err != nil || hello.Type != TypeHello {
		return errors.New("refhost: the runner's first message is not a hello")
	}
	if hello.Protocol != Protocol {
		return fmt.Errorf("refhost: the runner speaks %q, this host speaks %q", hello.Protocol, Protocol)
	}
	b := []byte(`{"type":"hello","protocol":`)
	b = wire.AppendJSONString(b, Protocol)
	b = append(b, `,"name":`...)
	b = wire.AppendJSONString(b, RefHostName)
	b = append(b, `,"version":`...)
	b = wire.AppendJSONString(b, version)
	b = append(b, `,"features":[`...)
	for i, f := range KnownFeatures() {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendJSONString(b, f)
	}
	b = append(b, `],"profiles":[`...)
	for i, p := range refhostProfiles {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendJSONString(b, p)
	}
	b = append(b, "]}\n"...)
	if err := emit(w, b); err != nil {
		return err
	}
	switch hello.Profile {
	case ProfileProjection:
		return serveProjection(r, w, mutant)
	case ProfileWait:
		return serveWait(r, w, mutant)
	}
	var h *host.Host // the current run's host; nil before the first start
	for {
		line, err := readRequest(r)
		if err == io.EOF {
			return nil // the runner went away: nothing to clean up in a pure engine
		}
		if err != nil {
			return err
		}
		var req struct {
			Type    string          `json:"type"`
			N       int64           `json:"n"`
			Now     int64           `json:"now"`
			Config  json.RawMessage `json:"config"`
			Command json.RawMessage `json:"command"`
		}
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("refhost: a request that is not JSON: %v", err)
		}
		b = b[:0]
		switch req.Type {
		case TypeBye:
			// 2. bye: exit cleanly.
			return nil
		case TypeStart:
			// 3. start: a fresh host for one run, from the scenario's configuration.
			//    A configuration the host refuses (TOOL-3) is a refused reply.
			cfg, err := wire.DecodeHostConfig(req.Config)
			if err != nil {
				b = errorLine(b, req.N, "bad start config: "+err.Error())
				break
			}
			h, err = host.New(host.Config{ToolMode: cfg.ToolMode, DefaultTimeoutSec: cfg.DefaultTimeoutSec, DefaultTimeoutSet: cfg.DefaultTimeoutSet, WriteWindowMs: cfg.WriteWindowMs.Ms(), Mutant: mutant})
			if err != nil {
				b = append(b, `{"type":"refused","n":`...)
				b = strconv.AppendInt(b, req.N, 10)
				b = append(b, `,"error":`...)
				b = wire.AppendJSONString(b, err.Error())
				b = append(b, "}\n"...)
				break
			}
			b = append(b, `{"type":"started","n":`...)
			b = strconv.AppendInt(b, req.N, 10)
			b = append(b, "}\n"...)
		case TypeApply:
			// 4. apply: one HostPort command at the runner's time; the reply carries the
			//    effects in order, the refusal (if any: the effects are then those of the
			//    timers that fired before the command) and the next deadline.
			if h == nil {
				b = errorLine(b, req.N, "apply before start")
				break
			}
			cmd, err := wire.DecodeCommand(req.Command)
			if err != nil {
				b = errorLine(b, req.N, "bad command: "+err.Error())
				break
			}
			effs, aerr := h.Apply(wire.Time(req.Now), cmd)
			at, ok := h.NextDeadline()
			if b, err = appendApplied(b, req.N, effs, wire.AppendEffectJSON, aerr, at, ok); err != nil {
				return fmt.Errorf("refhost: %v", err)
			}
		case TypeState:
			// 5. state: the snapshot, volatile machinery included (introspection).
			if h == nil {
				b = errorLine(b, req.N, "state before start")
				break
			}
			b = append(b, `{"type":"state","n":`...)
			b = strconv.AppendInt(b, req.N, 10)
			b = append(b, `,"state":`...)
			if b, err = wire.AppendHostStateJSON(b, h.State()); err != nil {
				return fmt.Errorf("refhost: cannot encode the state: %v", err)
			}
			b = append(b, "}\n"...)
		default:
			b = errorLine(b, req.N, "unknown request type "+strconv.Quote(req.Type))
		}
		if err := emit(w, b); err != nil {
			return err
		}
	}
}

// errorLine is the host giving up on a request it cannot serve.
// appendApplied appends the reply to an apply, for a host or a client alike: the effects
// in order, encoded by enc, the refusal if any, and the next deadline when there is one.
func appendApplied[E fmt.Stringer](b []byte, n int64, effs []E, enc func([]byte, E) ([]byte, error), refusal error, deadline wire.Time, hasDeadline bool) ([]byte, error) {
	b = append(b, `{"type":"applied","n":`...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"effects":[`...)
	for i, e := range effs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = enc(b, e); err != nil {
			return b, fmt.Errorf("cannot encode %s: %v", e, err)
		}
	}
	b = append(b, ']')
	if refusal != nil {
		b = append(b, `,"error":`...)
		b = wire.AppendJSONString(b, refusal.Error())
	}
	if hasDeadline {
		b = append(b, `,"deadline":`...)
		b = strconv.AppendInt(b, deadline.Ms(), 10)
	}
	return append(b, "}\n"...), nil
}

func errorLine(b []byte, n int64, msg string) []byte {
	b = append(b, `{"type":"error","n":`...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"message":`...)
	b = wire.AppendJSONString(b, msg)
	return append(b, "}\n"...)
}

func emit(w *bufio.Writer, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return err
	}
	return w.Flush()
}

// readRequest reads one line (without its newline); io.EOF at a clean end.
func readRequest(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadBytes('\n')
	if err == io.EOF && len(line) == 0 {
		return nil, io.EOF
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	return line, nil
}
