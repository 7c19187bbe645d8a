package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// RunFormat is the first line's format of a run file.
const RunFormat = "twosettle-run/1"

// A run file is one run of a scenario, by any host and clients, as JSON lines, so that
// the expectations can be checked after the fact (CheckExpectations, `simrun expect`);
// docs/PROTOCOL.md "Run files" is its reference. Line by line:
//
//	{"type":"run","format":"twosettle-run/1","scenario":NAME,"seed":N}
//	{"type":"record","seq":N,"t":MS,"actor":A,"kind":K,"clientTime"?:MS,"text":PAYLOAD, …}
//	{"type":"probe","seq":N,"t":MS,"label":"expect@1.5s","host":<host state>}
//	{"type":"final","t":MS,"host":<host state>}
//	{"type":"verdict","status":"ok|violation|unknown","text":VERDICT}     (optional)
//
// A record's "text" is its payload's canonical text (what the transcript line shows
// after the kind). The host's records carry their protocol value too, in the codec's
// JSON (docs/protocol): "command" for in, "effect" for out, and for reject "command"
// with "error". Any actor's reject carries "input" (the refused input's canonical text)
// and "error"; a drop carries "to", "why" and "what" (the dropped message's text). The
// records of every other kind and of the clients are text: record:, result: and reply:
// expectations and refusals need nothing more. Host states are the protocol's state
// JSON; the clients' states, on probe and final lines, are the client protocol's state
// JSON ("clients", by client name; docs/PROTOCOL.md "Clients"), so the expectations on a
// client's state are checked against a run file too (a file without them fails those).

// runLine is one line of a run file (every field of every line type).
type runLine struct {
	Type       string            `json:"type"`
	Format     string            `json:"format,omitempty"`
	Scenario   string            `json:"scenario,omitempty"`
	Seed       uint64            `json:"seed,omitempty"`
	Seq        *int              `json:"seq,omitempty"`
	T          *int64            `json:"t,omitempty"`
	Actor      string            `json:"actor,omitempty"`
	Kind       string            `json:"kind,omitempty"`
	ClientTime *int64            `json:"clientTime,omitempty"`
	Text       *string           `json:"text,omitempty"`
	Command    json.RawMessage   `json:"command,omitempty"`
	Effect     json.RawMessage   `json:"effect,omitempty"`
	Input      *string           `json:"input,omitempty"`
	Error      *string           `json:"error,omitempty"`
	To         string            `json:"to,omitempty"`
	Why        string            `json:"why,omitempty"`
	What       *string           `json:"what,omitempty"`
	Label      string            `json:"label,omitempty"`
	Host       json.RawMessage   `json:"host,omitempty"`
	Clients    []json.RawMessage `json:"clients,omitempty"`
	Status     string            `json:"status,omitempty"`
}

// WriteRunFile writes the run file of trace tr of scenario name; verdict may be nil.
func WriteRunFile(w io.Writer, name string, tr *trace.Trace, verdict *Verdict) error {
	bw := bufio.NewWriter(w)
	put := func(l runLine) error {
		b, err := json.Marshal(l)
		if err != nil {
			return err
		}
		bw.Write(b)
		return bw.WriteByte('\n')
	}
	if err := put(runLine{Type: "run", Format: RunFormat, Scenario: name, Seed: tr.Seed}); err != nil {
		return err
	}
	for i := range tr.Records {
		rec := &tr.Records[i]
		seq, t := rec.Seq, rec.Time
		l := runLine{Type: "record", Seq: &seq, T: &t, Actor: rec.Actor, Kind: rec.Kind.String()}
		if trace.IsClient(rec.Actor) {
			ct := rec.ClientTime
			l.ClientTime = &ct
		}
		if snap, ok := rec.Payload.(trace.Snapshot); ok && rec.Kind == trace.Probe {
			h, err := wire.AppendHostStateJSON(nil, snap.Host)
			if err != nil {
				return fmt.Errorf("record %d: %w", rec.Seq, err)
			}
			if err := put(runLine{Type: "probe", Seq: &seq, T: &t, Label: snap.Label, Host: h, Clients: clientStatesJSON(snap.Clients)}); err != nil {
				return err
			}
			continue
		}
		text := ""
		if rec.Payload != nil {
			text = rec.Payload.String()
		}
		l.Text = &text
		switch p := rec.Payload.(type) {
		case wire.Command:
			if rec.Actor == trace.ActorHost && rec.Kind == trace.In {
				l.Command, _ = wire.AppendCommandJSON(nil, p)
			}
		case wire.Effect:
			if rec.Actor == trace.ActorHost && rec.Kind == trace.Out {
				l.Effect, _ = wire.AppendEffectJSON(nil, p)
			}
		case trace.Rejected:
			in, e := "", p.Err
			if p.Input != nil {
				in = p.Input.String()
			}
			l.Input, l.Error = &in, &e
			if c, ok := p.Input.(wire.Command); ok && rec.Actor == trace.ActorHost {
				l.Command, _ = wire.AppendCommandJSON(nil, c)
			}
		case trace.Dropped:
			l.To, l.Why = p.To, p.Why
			if p.What != nil {
				what := p.What.String()
				l.What = &what
			}
		}
		if err := put(l); err != nil {
			return err
		}
	}
	h, err := wire.AppendHostStateJSON(nil, tr.Final.Host)
	if err != nil {
		return fmt.Errorf("final state: %w", err)
	}
	ft := tr.Final.Time
	if err := put(runLine{Type: "final", T: &ft, Host: h, Clients: clientStatesJSON(tr.Final.Clients)}); err != nil {
		return err
	}
	if verdict != nil {
		text := verdict.Text
		if err := put(runLine{Type: "verdict", Status: verdict.Status, Text: &text}); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// RunFile is a run file read back.
type RunFile struct {
	Scenario string
	Trace    *trace.Trace
	Verdict  *Verdict // nil when the file has none
}

// runFileError is a problem in a run file at file:line:col.
type runFileError struct {
	file      string
	line, col int
	msg       string
}

func (e *runFileError) Error() string {
	return e.file + ":" + strconv.Itoa(e.line) + ":" + strconv.Itoa(e.col) + ": " + e.msg
}

var kindsByName = map[string]trace.Kind{
	"in": trace.In, "out": trace.Out, "sched": trace.Sched, "fault": trace.Fault, "note": trace.Note,
	"drop": trace.Drop, "reject": trace.Reject, "probe": trace.Probe,
}

// ReadRunFile reads a run file; an error names file:line:col.
func ReadRunFile(file string, data []byte) (*RunFile, error) {
	rf := &RunFile{Trace: &trace.Trace{}}
	lines := bytes.Split(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	fail := func(i, col int, format string, args ...any) error {
		return &runFileError{file, i + 1, col, fmt.Sprintf(format, args...)}
	}
	final := false
	for i, raw := range lines {
		var l runLine
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			col := 1
			var se *json.SyntaxError
			if errors.As(err, &se) {
				col = int(se.Offset)
			}
			return nil, fail(i, col, "not a run file line: %v", err)
		}
		if dec.More() {
			return nil, fail(i, 1, "one JSON object a line")
		}
		if i == 0 {
			if l.Type != "run" || l.Format != RunFormat {
				return nil, fail(i, 1, "a run file starts with {\"type\":\"run\",\"format\":%q,…}", RunFormat)
			}
			rf.Scenario, rf.Trace.Seed = l.Scenario, l.Seed
			continue
		}
		if final && l.Type != "verdict" {
			return nil, fail(i, 1, "only a verdict may follow the final state")
		}
		switch l.Type {
		case "record", "probe":
			if l.Seq == nil || l.T == nil {
				return nil, fail(i, 1, "a %s needs seq and t", l.Type)
			}
			if *l.Seq != len(rf.Trace.Records) {
				return nil, fail(i, 1, "seq %d out of order (expected %d)", *l.Seq, len(rf.Trace.Records))
			}
			rec := trace.Record{Seq: *l.Seq, Time: *l.T}
			if l.Type == "probe" {
				h, err := wire.DecodeHostState(l.Host)
				if err != nil {
					return nil, fail(i, 1, "probe host state: %v", err)
				}
				cs, err := decodeClientStates(l.Clients)
				if err != nil {
					return nil, fail(i, 1, "probe %v", err)
				}
				rec.Actor, rec.Kind, rec.Payload = trace.ActorSim, trace.Probe, trace.Snapshot{Label: l.Label, Host: h, Clients: cs}
			} else {
				p, err := recordPayload(&l, &rec)
				if err != nil {
					return nil, fail(i, 1, "%v", err)
				}
				rec.Payload = p
			}
			rf.Trace.Records = append(rf.Trace.Records, rec)
		case "final":
			if l.T == nil {
				return nil, fail(i, 1, "the final state needs t")
			}
			h, err := wire.DecodeHostState(l.Host)
			if err != nil {
				return nil, fail(i, 1, "final host state: %v", err)
			}
			cs, err := decodeClientStates(l.Clients)
			if err != nil {
				return nil, fail(i, 1, "final %v", err)
			}
			rf.Trace.Final = trace.Final{Time: *l.T, Host: h, Clients: cs}
			final = true
		case "verdict":
			if l.Text == nil || l.Status == "" {
				return nil, fail(i, 1, "a verdict needs status and text")
			}
			rf.Verdict = &Verdict{Text: *l.Text, Status: l.Status}
		default:
			return nil, fail(i, 1, "unknown line type %q (record, probe, final or verdict)", l.Type)
		}
	}
	if len(lines) == 0 {
		return nil, &runFileError{file, 1, 1, "an empty run file"}
	}
	if !final {
		return nil, &runFileError{file, len(lines), 1, "the run file has no final state (a run that did not end)"}
	}
	return rf, nil
}

// recordPayload rebuilds a record's payload: the protocol value where the line carries
// one, else its canonical text.
func recordPayload(l *runLine, rec *trace.Record) (trace.Payload, error) {
	k, ok := kindsByName[l.Kind]
	if !ok || k == trace.Probe {
		return nil, fmt.Errorf("unknown record kind %q", l.Kind)
	}
	if l.Actor == "" {
		return nil, errors.New("a record needs an actor")
	}
	rec.Kind, rec.Actor = k, l.Actor
	if trace.IsClient(l.Actor) {
		if l.ClientTime == nil {
			return nil, fmt.Errorf("a record of client %s needs clientTime", l.Actor)
		}
		rec.ClientTime = *l.ClientTime
	}
	if l.Text == nil {
		return nil, errors.New("a record needs text")
	}
	switch {
	case k == trace.In && l.Command != nil:
		return wire.DecodeCommand(l.Command)
	case k == trace.Out && l.Effect != nil:
		return wire.DecodeEffect(l.Effect)
	case k == trace.Reject:
		if l.Error == nil {
			return nil, errors.New("a reject needs error")
		}
		rj := trace.Rejected{Err: *l.Error}
		switch {
		case l.Command != nil:
			c, err := wire.DecodeCommand(l.Command)
			if err != nil {
				return nil, err
			}
			rj.Input = c
		case l.Input != nil:
			rj.Input = trace.Text(*l.Input)
		}
		return rj, nil
	case k == trace.Drop && l.Why != "":
		d := trace.Dropped{To: l.To, Why: l.Why}
		if l.What != nil {
			d.What = trace.Text(*l.What)
		}
		return d, nil
	}
	return trace.Text(*l.Text), nil
}

// clientStatesJSON are the clients' states in the client protocol's JSON.
func clientStatesJSON(cs []wire.ClientState) []json.RawMessage {
	if len(cs) == 0 {
		return nil
	}
	out := make([]json.RawMessage, len(cs))
	for i, c := range cs {
		out[i] = wire.AppendClientStateJSON(nil, c)
	}
	return out
}

// decodeClientStates reads the clients' states of a probe or final line.
func decodeClientStates(raw []json.RawMessage) ([]wire.ClientState, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	out := make([]wire.ClientState, len(raw))
	for i, r := range raw {
		c, err := wire.DecodeClientState(r)
		if err != nil {
			return nil, fmt.Errorf("clients[%d]: %v", i, err)
		}
		out[i] = c
	}
	return out, nil
}
