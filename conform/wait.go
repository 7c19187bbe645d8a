package conform

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/fileio"
)

// The wait profile (docs/PROTOCOL.md, "Profiles", "wait"): the host is the timed wait
// alone (TimedQuestionWait). A wait script is a list of steps, each one operation at a
// virtual time; the runner sends each step as a "wait" request and the host answers with
// "waited": what happened (frames, claim-stream ends, closes, in order, each at the host's
// time) and how many timers it still has armed. The reference is engine/questions.Wait,
// driven by waitModel.

// The wait profile's messages.
const (
	TypeWait   = "wait"   // runner: one step of a wait script
	TypeWaited = "waited" // host: what the step did
)

// Wait operations (the "op" of a wait request).
const (
	WaitOpReset   = "reset"   // drop every wait, parent and claim stream; the clock is now
	WaitOpCreate  = "create"  // wait: a wait with deadline now+timeoutMs, under parent if named
	WaitOpAttach  = "attach"  // claim: open a claim stream on wait (its client signal cancelled if cancelled); not yet a claim (WAIT-3)
	WaitOpPull    = "pull"    // claim: pull the stream's next frame (the first pull attaches, WAIT-3/4/6/7)
	WaitOpReturn  = "return"  // claim: the consumer returns the claim (releases it, WAIT-5)
	WaitOpCancel  = "cancel"  // claim: abort the claim's client signal (a release when held; a pull after it ends with no frame, WAIT-7)
	WaitOpAbort   = "abort"   // parent: abort the parent signal with reason (WAIT-9)
	WaitOpClose   = "close"   // wait: the foreground request settled: close the wait with reason (WAIT-10, CLAIM-3)
	WaitOpAdvance = "advance" // nothing but time
)

// Wait events (the "event" of an entry of a waited reply).
const (
	WaitEventFrame  = "frame"  // claim, remainingMs: the claim stream's frame
	WaitEventEnd    = "end"    // claim: the claim stream ended
	WaitEventClosed = "closed" // wait, reason: the wait closed (its completion, once)
)

// ReasonTimedOut is the reason an unattended expiry closes a wait with (WAIT-8).
const ReasonTimedOut = wire.AskTimedOut

// WaitStep is one step of a wait script: an operation at virtual time Now.
//
// Its one canonical text form is a JSON line (AppendWaitStep, ParseWaitStep) with the
// keys in this order, only those of its operation:
//
//	{"now":0,"op":"create","wait":"w1","timeoutMs":5000,"parent":"p1"}
//	{"now":100,"op":"attach","claim":"k1","wait":"w1","cancelled":true}
//	{"now":100,"op":"pull","claim":"k1"}
//	{"now":900,"op":"abort","parent":"p1","reason":"TURN_ABORTED"}
type WaitStep struct {
	Now       int64
	Op        string
	Wait      string // create, attach, close
	Claim     string // attach, pull, return, cancel
	Parent    string // create (optional), abort
	TimeoutMs int64  // create: 1..2147483647
	Cancelled bool   // attach (optional)
	Reason    string // abort, close
}

// waitOpKeys are the keys of each operation after now and op, in their canonical order;
// a key ending in "?" is optional.
var waitOpKeys = map[string][]string{
	WaitOpReset:   {},
	WaitOpCreate:  {"wait", "timeoutMs", "parent?"},
	WaitOpAttach:  {"claim", "wait", "cancelled?"},
	WaitOpPull:    {"claim"},
	WaitOpReturn:  {"claim"},
	WaitOpCancel:  {"claim"},
	WaitOpAbort:   {"parent", "reason"},
	WaitOpClose:   {"wait", "reason"},
	WaitOpAdvance: {},
}

// AppendWaitStep appends the step's canonical JSON object (no newline).
func AppendWaitStep(b []byte, s WaitStep) []byte {
	b = append(b, `{"now":`...)
	b = strconv.AppendInt(b, s.Now, 10)
	b = append(b, `,"op":`...)
	b = wire.AppendJSONString(b, s.Op)
	return appendWaitFields(b, s)
}

// appendWaitFields appends the operation's keys and the closing brace.
func appendWaitFields(b []byte, s WaitStep) []byte {
	for _, k := range waitOpKeys[s.Op] {
		switch strings.TrimSuffix(k, "?") {
		case "wait":
			b = append(b, `,"wait":`...)
			b = wire.AppendJSONString(b, s.Wait)
		case "claim":
			b = append(b, `,"claim":`...)
			b = wire.AppendJSONString(b, s.Claim)
		case "parent":
			if s.Parent != "" || k == "parent" {
				b = append(b, `,"parent":`...)
				b = wire.AppendJSONString(b, s.Parent)
			}
		case "timeoutMs":
			b = append(b, `,"timeoutMs":`...)
			b = strconv.AppendInt(b, s.TimeoutMs, 10)
		case "cancelled":
			if s.Cancelled {
				b = append(b, `,"cancelled":true`...)
			}
		case "reason":
			b = append(b, `,"reason":`...)
			b = wire.AppendJSONString(b, s.Reason)
		}
	}
	return append(b, '}')
}

// String is the step's canonical text.
func (s WaitStep) String() string { return string(AppendWaitStep(nil, s)) }

// waitRequestLine is the request for step s: its canonical form with type and n first.
func waitRequestLine(n int64, s WaitStep) []byte {
	b := []byte(`{"type":"wait","n":`)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"now":`...)
	b = strconv.AppendInt(b, s.Now, 10)
	b = append(b, `,"op":`...)
	b = wire.AppendJSONString(b, s.Op)
	b = appendWaitFields(b, s)
	return append(b, '\n')
}

// maxWaitTimeout is the largest timeout a wait takes (ASK-6's bound).
const maxWaitTimeout = 2147483647

// ParseWaitStep decodes one step strictly: only the keys of its operation, each of its
// type, now a non-negative integer, names non-empty. The error names the key.
func ParseWaitStep(line []byte) (WaitStep, error) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return WaitStep{}, fmt.Errorf("not a JSON object: %v", err)
	}
	if dec.More() {
		return WaitStep{}, errors.New("more than one JSON value on the line")
	}
	var s WaitStep
	if err := jsonString(raw, "op", &s.Op); err != nil {
		return s, err
	}
	keys, ok := waitOpKeys[s.Op]
	if !ok {
		return s, fmt.Errorf("unknown op %q (one of %s)", s.Op, strings.Join(waitOps(), ", "))
	}
	allowed := map[string]bool{"now": true, "op": true, "type": true, "n": true}
	for _, k := range keys {
		allowed[strings.TrimSuffix(k, "?")] = true
	}
	var extra []string
	for k := range raw {
		if !allowed[k] {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return s, fmt.Errorf("%s: unknown key %q", s.Op, extra[0])
	}
	if err := jsonInt(raw, "now", 0, 1<<53, &s.Now); err != nil {
		return s, err
	}
	for _, k := range keys {
		name, optional := strings.CutSuffix(k, "?")
		if _, present := raw[name]; !present {
			if optional {
				continue
			}
			return s, fmt.Errorf("%s: missing key %q", s.Op, name)
		}
		var err error
		switch name {
		case "wait":
			err = jsonName(raw, name, &s.Wait)
		case "claim":
			err = jsonName(raw, name, &s.Claim)
		case "parent":
			err = jsonName(raw, name, &s.Parent)
		case "reason":
			err = jsonName(raw, name, &s.Reason)
		case "timeoutMs":
			err = jsonInt(raw, name, 1, maxWaitTimeout, &s.TimeoutMs)
		case "cancelled":
			if e := json.Unmarshal(raw[name], &s.Cancelled); e != nil || string(raw[name]) == "null" {
				err = fmt.Errorf("%q is not a boolean", name)
			}
		}
		if err != nil {
			return s, fmt.Errorf("%s: %v", s.Op, err)
		}
	}
	return s, nil
}

func waitOps() []string {
	ops := make([]string, 0, len(waitOpKeys))
	for op := range waitOpKeys {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return ops
}

func jsonString(raw map[string]json.RawMessage, key string, out *string) error {
	v, ok := raw[key]
	if !ok {
		return fmt.Errorf("missing key %q", key)
	}
	if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, out) != nil {
		return fmt.Errorf("%q is not a string", key)
	}
	return nil
}

func jsonName(raw map[string]json.RawMessage, key string, out *string) error {
	if err := jsonString(raw, key, out); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("%q is empty", key)
	}
	return nil
}

func jsonInt(raw map[string]json.RawMessage, key string, lo, hi int64, out *int64) error {
	v, ok := raw[key]
	if !ok {
		return fmt.Errorf("missing key %q", key)
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || n < lo || n > hi {
		return fmt.Errorf("%q is not an integer in %d..%d: %s", key, lo, hi, clip(v))
	}
	*out = n
	return nil
}

// WaitScript is a named list of steps, replayed against a fresh host (a reset at time 0
// comes first and is not part of it).
type WaitScript struct {
	Name   string
	Path   string // the file it was read from ("" when generated)
	Seed   uint64 // the generator's seed (0 when read or derived from the library)
	Source string // "generated", "library" or "file"
	Steps  []WaitStep
}

// Bounds of a wait script file (ReadWaitScript): a script is a few thousand short lines.
const (
	MaxWaitScriptSize = 256 << 20
	MaxWaitScriptLine = 1 << 20
)

// ReadWaitScript reads the script file at path: a regular file only, at most
// MaxWaitScriptSize bytes (fileio.OpenLimited), judged line by line as it is read
// (ParseWaitScript), so a malformed line is reported when it is reached, not after the
// whole file was read.
func ReadWaitScript(path string) (WaitScript, error) {
	f, err := fileio.OpenLimited(path, MaxWaitScriptSize)
	if err != nil {
		return WaitScript{}, err
	}
	defer f.Close()
	return parseWaitScript(path, f)
}

// ParseWaitScript reads a script file: one step per line in its canonical form; blank
// lines and lines starting with # are skipped. Time never goes back, and a wait or claim
// name is created or attached once. Errors are "path:line:col: …".
func ParseWaitScript(path string, data []byte) (WaitScript, error) {
	return parseWaitScript(path, bytes.NewReader(data))
}

func parseWaitScript(path string, r io.Reader) (WaitScript, error) {
	sc := WaitScript{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), Path: path, Source: "file"}
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for i := 0; ; i++ {
		line = line[:0]
		var err error
		for {
			var frag []byte
			frag, err = br.ReadSlice('\n')
			if len(line)+len(frag) > MaxWaitScriptLine+1 {
				return sc, scriptErrorf("%s:%d:1: the line is longer than %d bytes", path, i+1, MaxWaitScriptLine)
			}
			line = append(line, frag...)
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if err != nil && err != io.EOF {
			return sc, err
		}
		if err == io.EOF && len(line) == 0 {
			return sc, nil
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) > 0 && trimmed[0] != '#' {
			col := bytes.Index(line, trimmed) + 1
			s, err := ParseWaitStep(trimmed)
			if err != nil {
				return sc, scriptErrorf("%s:%d:%d: %v", path, i+1, col, err)
			}
			sc.Steps = append(sc.Steps, s)
			if err := checkWaitSteps(sc.Steps); err != nil {
				return sc, scriptErrorf("%s:%d:%d: %v", path, i+1, col, err)
			}
		}
		if err == io.EOF {
			return sc, nil
		}
	}
}

// scriptError is a malformed script file, "path:line:col: …" (not a file that cannot be read).
type scriptError struct{ msg string }

func (e *scriptError) Error() string { return e.msg }

func scriptErrorf(format string, args ...any) error {
	return &scriptError{fmt.Sprintf(format, args...)}
}

// checkWaitSteps checks the last step against those before it.
func checkWaitSteps(steps []WaitStep) error {
	n := len(steps)
	s := steps[n-1]
	if s.Op == WaitOpReset {
		return errors.New("reset is the runner's, not a script step")
	}
	for _, p := range steps[:n-1] {
		if p.Now > s.Now {
			return fmt.Errorf("time goes back: %d after %d", s.Now, p.Now)
		}
		if s.Op == WaitOpCreate && p.Op == WaitOpCreate && p.Wait == s.Wait {
			return fmt.Errorf("wait %q is created twice", s.Wait)
		}
		if s.Op == WaitOpAttach && p.Op == WaitOpAttach && p.Claim == s.Claim {
			return fmt.Errorf("claim %q is attached twice", s.Claim)
		}
	}
	return nil
}

// WaitEvent is one thing the wait did, at the host's time At.
//
// Its canonical text form is a JSON object with the keys in this order:
//
//	{"event":"frame","claim":"k1","remainingMs":4000,"at":1000}
//	{"event":"end","claim":"k1","at":1000}
//	{"event":"closed","wait":"w1","reason":"ASK_TIMED_OUT","at":5000}
type WaitEvent struct {
	Event       string
	Wait        string // closed
	Claim       string // frame, end
	RemainingMs int64  // frame
	Reason      string // closed
	At          int64
}

// AppendWaitEvent appends the event's canonical JSON object.
func AppendWaitEvent(b []byte, e WaitEvent) []byte {
	b = append(b, `{"event":`...)
	b = wire.AppendJSONString(b, e.Event)
	switch e.Event {
	case WaitEventFrame:
		b = append(b, `,"claim":`...)
		b = wire.AppendJSONString(b, e.Claim)
		b = append(b, `,"remainingMs":`...)
		b = strconv.AppendInt(b, e.RemainingMs, 10)
	case WaitEventEnd:
		b = append(b, `,"claim":`...)
		b = wire.AppendJSONString(b, e.Claim)
	case WaitEventClosed:
		b = append(b, `,"wait":`...)
		b = wire.AppendJSONString(b, e.Wait)
		b = append(b, `,"reason":`...)
		b = wire.AppendJSONString(b, e.Reason)
	}
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, e.At, 10)
	return append(b, '}')
}

func (e WaitEvent) String() string { return string(AppendWaitEvent(nil, e)) }

// same reports whether two events are the same apart from their times (and, with
// slack > 0, frames whose remainingMs differ by at most slack).
func (e WaitEvent) same(o WaitEvent, slack int64) bool {
	if e.Event != o.Event || e.Wait != o.Wait || e.Claim != o.Claim || e.Reason != o.Reason {
		return false
	}
	d := e.RemainingMs - o.RemainingMs
	return d <= slack && -d <= slack
}

// WaitReply is a host's answer to one step: its events in order and the number of
// timers it has armed once the step is done.
type WaitReply struct {
	Events []WaitEvent
	Timers int64
}

// String is the reply's canonical text: {"events":[…],"timers":N}.
func (r WaitReply) String() string {
	b := []byte(`{"events":[`)
	for i, e := range r.Events {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendWaitEvent(b, e)
	}
	b = append(b, `],"timers":`...)
	b = strconv.AppendInt(b, r.Timers, 10)
	return string(append(b, '}'))
}

// decodeWaitEvents decodes the events of a waited reply strictly.
func decodeWaitEvents(raw json.RawMessage) ([]WaitEvent, error) {
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || raw == nil || string(raw) == "null" {
		return nil, errors.New(`"events" is not an array of objects`)
	}
	out := make([]WaitEvent, 0, len(items))
	for i, it := range items {
		var e WaitEvent
		bad := func(err error) error { return fmt.Errorf("events[%d]: %v", i, err) }
		if err := jsonString(it, "event", &e.Event); err != nil {
			return nil, bad(err)
		}
		var keys []string
		switch e.Event {
		case WaitEventFrame:
			keys = []string{"claim", "remainingMs"}
		case WaitEventEnd:
			keys = []string{"claim"}
		case WaitEventClosed:
			keys = []string{"wait", "reason"}
		default:
			return nil, bad(fmt.Errorf("unknown event %q", e.Event))
		}
		keys = append(keys, "at", "event")
		for k := range it {
			if !has(keys, k) {
				return nil, bad(fmt.Errorf("%s: unknown key %q", e.Event, k))
			}
		}
		var err error
		for _, k := range keys {
			switch k {
			case "claim":
				err = jsonName(it, k, &e.Claim)
			case "wait":
				err = jsonName(it, k, &e.Wait)
			case "reason":
				err = jsonString(it, k, &e.Reason)
			case "remainingMs":
				err = jsonInt(it, k, -1<<53, 1<<53, &e.RemainingMs)
			case "at":
				err = jsonInt(it, k, -1<<53, 1<<53, &e.At)
			}
			if err != nil {
				return nil, bad(err)
			}
		}
		out = append(out, e)
	}
	return out, nil
}
