package conform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// Protocol is the version this runner speaks (docs/PROTOCOL.md).
const Protocol = "twosettle-conform/1"

// Message types. Every line of the protocol is one JSON object whose "type" is one of
// these; the runner's requests (start, apply, state) carry a number n that the host's
// reply repeats.
const (
	TypeHello   = "hello"   // both ways, once, first
	TypeStart   = "start"   // runner: a fresh host for one run, with its configuration
	TypeStarted = "started" // host: the run started
	TypeRefused = "refused" // host: it refuses that configuration (TOOL-3)
	TypeApply   = "apply"   // runner: one HostPort command at time now
	TypeApplied = "applied" // host: the command's effects, refusal, next deadline
	TypeState   = "state"   // both ways: a snapshot request and its answer
	TypeError   = "error"   // host: it cannot go on (the run is broken, not judged)
	TypeBye     = "bye"     // runner: no more runs; the host exits

	// The projection profile (docs/PROTOCOL.md, "Profiles"): each request is answered
	// with a view.
	TypeFoldStart = "fold-start" // runner: a fresh fold for one Session log
	TypeEvent     = "event"      // runner: fold one event
	TypeView      = "view"       // host: the userQuestions view after the request
)

// Features a host may declare in its hello (docs/PROTOCOL.md, "Features"). A scenario
// that needs a feature the host does not declare is not applicable to it; an invariant
// that needs introspection is not checked for it.
const (
	FeaturePTC           = "ptc"           // run_code with sub-calls (tool/ptc-dispatch events)
	FeatureRestart       = "restart"       // the restart command between commands
	FeatureCrashCut      = "crash-cut"     // restart with cutAfter >= 0: a crash inside the previous apply
	FeatureFork          = "fork"          // open-session with forkOf
	FeatureDirect        = "direct"        // direct service calls (ask, askTimed, answer)
	FeatureIntrospection = "introspection" // wait-note effects and the volatile part of the state
	FeatureInboxFaults   = "inbox-faults"  // fail-inbox-write
	FeatureSource        = "source"        // send with a source (a message from another producer)
	FeatureSleep         = "sleep"         // the sleep tool ({"ms":N} takes virtual time)
	FeatureWriteWindow   = "write-window"  // honours a configured write-behind window (else write-through)
	FeatureAppendEvent   = "append-event"  // append-event and claim-reply: a Session's history and notifications written by hand
	// FeatureReferenceRuntime: the host follows the reference agent runtime's own
	// bookkeeping (turn and step events, inbox splices, seqs, persistence reports, phases),
	// which the decision does not specify: its runs are compared transcript for transcript.
	FeatureReferenceRuntime = "reference-runtime"
)

// KnownFeatures lists every feature of this protocol version, sorted.
func KnownFeatures() []string {
	fs := []string{FeaturePTC, FeatureRestart, FeatureCrashCut, FeatureFork, FeatureDirect,
		FeatureIntrospection, FeatureInboxFaults, FeatureSource, FeatureSleep, FeatureWriteWindow, FeatureAppendEvent,
		FeatureReferenceRuntime}
	sort.Strings(fs)
	return fs
}

func knownFeature(f string) bool { return has(KnownFeatures(), f) }

// hostMessage is any line a host writes, decoded in one pass; decodeHostMessage checks
// that only the keys of its type are there.
type hostMessage struct {
	Type     string            `json:"type"`
	N        *int64            `json:"n"`
	Protocol *string           `json:"protocol"`
	Name     *string           `json:"name"`
	Version  *string           `json:"version"`
	Features []string          `json:"features"`
	Profiles []string          `json:"profiles"`
	Error    *string           `json:"error"`
	Message  *string           `json:"message"`
	Effects  []json.RawMessage `json:"effects"`
	Deadline *int64            `json:"deadline"`
	State    json.RawMessage   `json:"state"`
	Events   json.RawMessage   `json:"events"`
	Timers   *int64            `json:"timers"`
	View     json.RawMessage   `json:"view"`
}

// keys are the keys present in m (other than type).
func (m *hostMessage) keys() []string {
	var ks []string
	add := func(set bool, k string) {
		if set {
			ks = append(ks, k)
		}
	}
	add(m.N != nil, "n")
	add(m.Protocol != nil, "protocol")
	add(m.Name != nil, "name")
	add(m.Version != nil, "version")
	add(m.Features != nil, "features")
	add(m.Profiles != nil, "profiles")
	add(m.Error != nil, "error")
	add(m.Message != nil, "message")
	add(m.Effects != nil, "effects")
	add(m.Deadline != nil, "deadline")
	add(m.State != nil, "state")
	add(m.Events != nil, "events")
	add(m.Timers != nil, "timers")
	add(m.View != nil, "view")
	return ks
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// allowed keys per host message type (strict decoding: anything else is a protocol error).
var hostKeys = map[string][]string{
	TypeHello:   {"protocol", "name", "version", "features", "profiles"},
	TypeStarted: {"n"},
	TypeRefused: {"n", "error"},
	TypeApplied: {"n", "effects", "error", "deadline"},
	TypeState:   {"n", "state"},
	TypeError:   {"n", "message"},
	TypeWaited:  {"n", "events", "timers"},
	TypeView:    {"n", "view"},
}

// decodeHostMessage decodes one line of host output strictly.
func decodeHostMessage(line []byte) (*hostMessage, error) {
	var m hostMessage
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("malformed message: %v", err)
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value on the line")
	}
	if k, dup := duplicateTopKey(line); dup {
		// encoding/json keeps the last; the effects' own decoder refuses duplicates, and
		// so does the envelope: which of two "n" or "deadline" a host meant is no guess
		return nil, fmt.Errorf("malformed message: duplicate key %q", k)
	}
	allowed, ok := hostKeys[m.Type]
	if !ok {
		if m.Type == "" {
			return nil, errors.New(`a message without a "type"`)
		}
		return nil, fmt.Errorf("unknown message type %q", m.Type)
	}
	for _, k := range m.keys() {
		found := false
		for _, a := range allowed {
			found = found || k == a
		}
		if !found {
			return nil, fmt.Errorf("%s message: unknown key %q", m.Type, k)
		}
	}
	if m.Type != TypeHello && m.N == nil {
		return nil, fmt.Errorf(`%s message without "n"`, m.Type)
	}
	return &m, nil
}

// duplicateTopKey reports a key that the JSON object on line (already decoded: valid
// JSON) has twice at its top level. It scans the bytes once, without decoding values.
func duplicateTopKey(line []byte) (string, bool) {
	var keys []string
	depth := 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			j := i + 1
			esc := false
			for ; j < len(line); j++ {
				if line[j] == '\\' {
					esc = true
					j++
					continue
				}
				if line[j] == '"' {
					break
				}
			}
			raw := line[i : j+1]
			i = j
			if depth != 1 {
				continue
			}
			k := j + 1
			for k < len(line) && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r' || line[k] == '\n') {
				k++
			}
			if k >= len(line) || line[k] != ':' {
				continue // a value, not a key
			}
			key := string(raw[1 : len(raw)-1])
			if esc {
				json.Unmarshal(raw, &key)
			}
			for _, seen := range keys {
				if seen == key {
					return key, true
				}
			}
			keys = append(keys, key)
		}
	}
	return "", false
}

// Request encoders: compact, canonical JSON lines (with their newline).

// helloLine is the runner's hello; a profile other than the whole host is named in it.
func helloLine(profile string) []byte {
	b := []byte(`{"type":"hello","protocol":`)
	b = wire.AppendJSONString(b, Protocol)
	b = append(b, `,"runner":`...)
	b = wire.AppendJSONString(b, "twosettle conform")
	if profile != "" && profile != ProfileHost {
		b = append(b, `,"profile":`...)
		b = wire.AppendJSONString(b, profile)
	}
	return append(b, "}\n"...)
}

func startLine(n int64, cfg wire.HostConfig) []byte {
	b := []byte(`{"type":"start","n":`)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"config":`...)
	b = wire.AppendHostConfigJSON(b, cfg)
	return append(b, "}\n"...)
}

func applyLine(b []byte, n, now int64, cmd wire.Command) ([]byte, error) {
	b = append(b, `{"type":"apply","n":`...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"now":`...)
	b = strconv.AppendInt(b, now, 10)
	b = append(b, `,"command":`...)
	b, err := wire.AppendCommandJSON(b, cmd)
	if err != nil {
		return nil, err
	}
	return append(b, "}\n"...), nil
}

func stateLine(n int64) []byte {
	b := []byte(`{"type":"state","n":`)
	b = strconv.AppendInt(b, n, 10)
	return append(b, "}\n"...)
}

func byeLine() []byte { return []byte(`{"type":"bye"}` + "\n") }
