package conform

import (
	"bytes"
	"strings"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

// unjudged is the harness.Options.Unjudged of a host with these features: the
// expectations that read what such a host need not show (docs/PROTOCOL.md "How a run is
// judged") are left out of its verdict, each with its reason. What an expectation reads
// is decided from the reference's run of the same scenario (ref), never by guessing
// from its words alone: a record: expectation whose every match there is a wait note
// reads the wait machinery, one whose every match is a persistence report or a runtime
// event reads the runtime's bookkeeping.
func unjudged(features []string, ref *trace.Trace) func(e *scenarios.Expectation) string {
	intro := has(features, FeatureIntrospection)
	runtime := has(features, FeatureReferenceRuntime)
	const needsIntro = "reads the host's volatile state (needs " + FeatureIntrospection + ")"
	const needsRuntime = "reads the reference runtime's own bookkeeping, which the decision leaves free (needs " + FeatureReferenceRuntime + ")"
	return func(e *scenarios.Expectation) string {
		switch e.Kind {
		case scenarios.ExpectHostWait, scenarios.ExpectReservation:
			if !intro {
				return needsIntro
			}
		case scenarios.ExpectConversation:
			if !runtime {
				return needsRuntime
			}
		case scenarios.ExpectAgent:
			if e.Phase != "" && !runtime {
				return needsRuntime
			}
		case scenarios.ExpectRecord:
			switch recordReads(e.Subject, ref) {
			case readsWait:
				if !intro {
					return needsIntro
				}
			case readsRuntime:
				if !runtime {
					return needsRuntime
				}
			}
		case scenarios.ExpectEvent:
			if !runtime && eventReadsRuntime(e.Subject, ref) {
				return needsRuntime
			}
		}
		return ""
	}
}

// What a record: expectation reads.
const (
	readsObservable = iota
	readsWait
	readsRuntime
)

// recordReads classifies a record: expectation by the reference's records its subject
// matches: all wait notes, all runtime bookkeeping, or anything else. A subject that
// matches nothing there (an expectation that something never happens) is classified by
// the kind of record it names: a wait note ("wait s1/c1 …").
func recordReads(subject string, ref *trace.Trace) int {
	waits, runtime, other := 0, 0, 0
	if ref != nil {
		var b []byte
		for _, r := range ref.Records {
			if r.Kind == trace.Probe {
				continue
			}
			b = r.AppendTo(b[:0])
			if !bytes.Contains(b, []byte(subject)) {
				continue
			}
			switch p := r.Payload.(type) {
			case wire.WaitNote:
				waits++
			case wire.Persisted:
				runtime++
			case wire.Appended:
				if runtimeEvent(p.Event.Type()) {
					runtime++
				} else {
					other++
				}
			default:
				other++
			}
		}
	}
	switch {
	case other > 0:
		return readsObservable
	case waits > 0 && runtime == 0:
		return readsWait
	case runtime > 0 && waits == 0:
		return readsRuntime
	case waits == 0 && runtime == 0 && (strings.HasPrefix(subject, "wait ") || strings.Contains(subject, " out wait ")):
		return readsWait
	}
	return readsObservable
}

// eventReadsRuntime reports whether an event: expectation's subject names a runtime
// event type, or matches only runtime events of the reference's final logs.
func eventReadsRuntime(subject string, ref *trace.Trace) bool {
	for _, t := range []string{session.TypeTurnStart, session.TypeTurnEnd, session.TypeStepStart, session.TypeStepEnd, session.TypeInboxSpliced} {
		if strings.HasPrefix(subject, t) {
			return true
		}
	}
	if ref == nil {
		return false
	}
	runtime, other := 0, 0
	for _, s := range ref.Final.Host.Sessions {
		for _, ev := range s.Log {
			if !strings.HasPrefix(ev.Data.String(), subject) {
				continue
			}
			if runtimeEvent(ev.Type()) {
				runtime++
			} else {
				other++
			}
		}
	}
	return runtime > 0 && other == 0
}

// runtimeEvent reports whether a Session event type is the reference runtime's own
// bookkeeping rather than something the decision specifies.
func runtimeEvent(typ string) bool {
	switch typ {
	case session.TypeTurnStart, session.TypeTurnEnd, session.TypeStepStart, session.TypeStepEnd, session.TypeInboxSpliced:
		return true
	}
	return false
}
