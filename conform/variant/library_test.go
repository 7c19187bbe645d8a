package variant

import (
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/scenarios"
)

// recorder is a port that keeps the JSON of everything a host shows (effects, refusals,
// states) and of every command it was given.
type recorder struct {
	h        wire.HostPort
	shown    []string
	commands []string
}

func (r *recorder) Apply(now wire.Time, cmd wire.Command) ([]wire.Effect, error) {
	if b, err := wire.AppendCommandJSON(nil, cmd); err == nil {
		r.commands = append(r.commands, string(b))
	}
	effs, err := r.h.Apply(now, cmd)
	for _, e := range effs {
		b, jerr := wire.AppendEffectJSON(nil, e)
		if jerr != nil {
			r.shown = append(r.shown, "unencodable: "+jerr.Error())
			continue
		}
		r.shown = append(r.shown, string(b))
	}
	if err != nil {
		r.shown = append(r.shown, "refusal: "+err.Error())
	}
	return effs, err
}

func (r *recorder) NextDeadline() (wire.Time, bool) { return r.h.NextDeadline() }

func (r *recorder) State() wire.HostState {
	st := r.h.State()
	b, err := wire.AppendHostStateJSON(nil, st)
	if err != nil {
		r.shown = append(r.shown, "unencodable state: "+err.Error())
	} else {
		r.shown = append(r.shown, string(b))
	}
	return st
}

func library(t *testing.T) []*scenarios.Scenario {
	t.Helper()
	var out []*scenarios.Scenario
	for _, e := range harness.Library("") {
		s, err := scenarios.Decode(e.Path, e.Data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// recordedFactory builds l's hosts around the reference host and keeps each run's
// recorder in *last.
func recordedFactory(l List, mu *sync.Mutex, last **recorder) harness.HostFactory {
	inner := l.Factory(harness.ReferenceHost(""))
	return func(cfg wire.HostConfig) (wire.HostPort, error) {
		h, err := inner(cfg)
		if err != nil {
			return h, err
		}
		r := &recorder{h: h}
		mu.Lock()
		*last = r
		mu.Unlock()
		return r, nil
	}
}

// refForm matches the reference host's ids as JSON strings or as words in a text: event
// ids e1, e2, ... (as whole JSON strings: "e1" is too short a word to find in prose) and
// message ids msg-1, msg-2, ...
var refForm = regexp.MustCompile(`"e[0-9]+"|\bmsg-[0-9]+\b`)

// Every id the reference mints is renamed everywhere a host shows it: the whole library
// runs through each ids variant, and no effect, refusal or state (probes and the final
// state, volatile parts included) holds an id of the reference's form that no command
// named. The runs stay valid: no lost host, no impossible step, no oracle violation (the
// oracle follows ids through frames, results, logs and state, so an id left untranslated
// on the way in shows as a violation or a refused step).
func TestIDsRenameEveryID(t *testing.T) {
	scs := library(t)
	for _, name := range []string{NameIDsUUID, NameIDsNumbers} {
		t.Run(name, func(t *testing.T) {
			v, _ := Lookup(name)
			var mu sync.Mutex
			var rec *recorder
			hosts := recordedFactory(List{v}, &mu, &rec)
			shownIDs := 0
			for _, s := range scs {
				rec = nil
				res := &harness.Result{}
				harness.RunScenario(res, s, harness.Options{Oracle: harness.ReferenceOracle, Host: hosts, AnyRefusalText: true})
				if res.Lost != nil || res.Invalid != nil {
					t.Errorf("%s: lost %v, invalid %v", s.Name, res.Lost, res.Invalid)
					continue
				}
				if res.Verdict != nil && res.Verdict.Status != "ok" {
					t.Errorf("%s: oracle: %s", s.Name, firstLine(res.Verdict.Text))
				}
				if rec == nil {
					continue // the host refused its configuration
				}
				named := strings.Join(rec.commands, "\n")
				for _, line := range rec.shown {
					for _, m := range refForm.FindAllString(line, -1) {
						if strings.Contains(named, m) {
							continue // the runner chose it (a history appended by hand)
						}
						t.Errorf("%s: a reference id %s is shown: %.300s", s.Name, m, line)
						break
					}
					if strings.Contains(line, `"eventId"`) || strings.Contains(line, `"messageId"`) || strings.Contains(line, `"id":`) {
						shownIDs++
					}
				}
			}
			if shownIDs == 0 {
				t.Fatal("no id was ever shown: the test saw nothing")
			}
		})
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
