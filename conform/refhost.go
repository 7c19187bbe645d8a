package conform

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/benbjohnson/clock"
	"github.com/twosettle/twosettle/conform/variant"
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
	return serveRefHost(in, out, mutant, version, nil, nil)
}

// ServeVariants is `conform refhost --variant NAME[,NAME...]`: the reference host behind
// correct-but-different variants (package conform/variant), served over the protocol. The
// hello declares the variants' features; json-style restyles every line written. The
// variants change the host profile (the others are served as by Serve, restyled by
// json-style only). clk nil is the runner's time, else the host's own timers
// (--real-timers).
func ServeVariants(in io.Reader, out io.Writer, mutant string, variants variant.List, version string, clk clock.Clock) error {
	return serveRefHost(in, out, mutant, version, clk, variants)
}

// ServeRealTimers is `conform refhost --real-timers`: the reference host of the host
// profile on its own timers on clk (timersHost), for real-time mode; "now" is ignored.
func ServeRealTimers(in io.Reader, out io.Writer, mutant string, version string, clk clock.Clock) error {
	return serveRefHost(in, out, mutant, version, clk, nil)
}

// serveRefHost serves the reference host: on the runner's time (clk nil), or on its own
// timers on clk; behind variants (none: the reference host itself).
func serveRefHost(in io.Reader, out io.Writer, mutant string, version string, clk clock.Clock, variants variant.List) error {
	// Refuse a bad mutant before speaking: a host that cannot serve must not say hello.
	if _, err := host.New(host.Config{Mutant: mutant}); err != nil {
		return err
	}
	if variants.JSONStyle() {
		out = &restyler{w: out}
	}
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	// 1. The runner's hello comes first; answer with ours: protocol, name, version and
	//    every feature (the reference host has them all).
	hello, err := readRunnerHello(r, "refhost", "host")
	if err != nil {
		return err
	}
	b := appendHelloStart(nil, RefHostName, version)
	b = append(b, `,"features":[`...)
	for i, f := range variants.Features(KnownFeatures()) {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendJSONString(b, f)
	}
	b = append(b, `],"profiles":[`...)
	profiles := refhostProfiles
	hostOnly := variants.Name() != "" && !(len(variants) == 1 && variants.JSONStyle())
	if hostOnly {
		profiles = []string{ProfileHost} // the variants are of a whole host
	}
	for i, p := range profiles {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendJSONString(b, p)
	}
	b = append(b, "]}\n"...)
	if err := emit(w, b); err != nil {
		return err
	}
	if clk != nil && hello.Profile != "" && hello.Profile != ProfileHost {
		return fmt.Errorf("--real-timers serves the host profile only, not %q", hello.Profile)
	}
	if hostOnly && hello.Profile != "" && hello.Profile != ProfileHost {
		return fmt.Errorf("--variant %s changes the host profile only, not %q (json-style alone serves every profile)", variants.Name(), hello.Profile)
	}
	switch hello.Profile {
	case ProfileProjection:
		return serveProjection(r, w, mutant)
	case ProfileWait:
		return serveWait(r, w, mutant)
	}
	var h wire.HostPort    // the current run's host; nil before the first start
	var timers *timersHost // the current run's host on its own timers, under its variants
	stop := func() {
		if timers != nil {
			timers.Close() // its timer must not fire into the next run
			timers = nil
		}
	}
	defer stop()
	return serveLines(r, w, func(b, line []byte) ([]byte, bool, error) {
		var req struct {
			Type    string          `json:"type"`
			N       int64           `json:"n"`
			Now     int64           `json:"now"`
			Config  json.RawMessage `json:"config"`
			Command json.RawMessage `json:"command"`
		}
		if err := decodeRequest(line, &req, "refhost"); err != nil {
			return b, false, err
		}
		switch req.Type {
		case TypeBye:
			// 2. bye: exit cleanly.
			return b, true, nil
		case TypeStart:
			// 3. start: a fresh host for one run, from the scenario's configuration.
			//    A configuration the host refuses (TOOL-3) is a refused reply.
			cfg, err := wire.DecodeHostConfig(req.Config)
			if err != nil {
				b = errorLine(b, req.N, "bad start config: "+err.Error())
				break
			}
			stop()
			h = nil
			//    A variant may build it with another configuration (write-through).
			vcfg := variants.Config(cfg)
			eh, err := host.New(host.Config{ToolMode: vcfg.ToolMode, DefaultTimeoutSec: vcfg.DefaultTimeoutSec, DefaultTimeoutSet: vcfg.DefaultTimeoutSet, WriteWindowMs: vcfg.WriteWindowMs.Ms(), Mutant: mutant})
			if err != nil {
				b = appendReplyStart(b, TypeRefused, req.N)
				b = append(b, `,"error":`...)
				b = wire.AppendJSONString(b, err.Error())
				b = append(b, "}\n"...)
				break
			}
			h = eh
			if clk != nil {
				// On its own timers, its clock starts now: before the reply, so no
				// event of the run can seem early by the reply's latency.
				timers = newTimersHost(eh, clk)
				h = timers
			}
			h = variants.Wrap(h)
			b = append(appendReplyStart(b, TypeStarted, req.N), "}\n"...)
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
				return b, false, fmt.Errorf("refhost: %v", err)
			}
		case TypeState:
			// 5. state: the snapshot, volatile machinery included (introspection).
			if h == nil {
				b = errorLine(b, req.N, "state before start")
				break
			}
			b = append(appendReplyStart(b, TypeState, req.N), `,"state":`...)
			var err error
			if b, err = wire.AppendHostStateJSON(b, h.State()); err != nil {
				return b, false, fmt.Errorf("refhost: cannot encode the state: %v", err)
			}
			b = append(b, "}\n"...)
		default:
			b = errorLine(b, req.N, "unknown request type "+strconv.Quote(req.Type))
		}
		return b, false, nil
	})
}

// restyler is the json-style variant over the wire: every line written through it is
// restyled (variant.Restyle: other key order, other whitespace) before it goes out.
type restyler struct {
	w   io.Writer
	buf []byte
}

func (r *restyler) Write(p []byte) (int, error) {
	r.buf = append(r.buf, p...)
	for {
		i := bytes.IndexByte(r.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := append(variant.Restyle(r.buf[:i]), '\n')
		if _, err := r.w.Write(line); err != nil {
			return 0, err
		}
		r.buf = r.buf[:copy(r.buf, r.buf[i+1:])]
	}
}
