package harness

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/twosettle/twosettle/scenarios"
	"github.com/twosettle/twosettle/trace"
)

func init() { registerCheck(scenarios.ExpectRecord, checkRecord) }

// checkRecord checks a record expectation: the trace records whose canonical line
// contains the subject.
func checkRecord(r *Result, e *scenarios.Expectation, v view, session string, plan *Plan) {
	n := 0
	var times []string
	var b []byte
	for _, rec := range v.records {
		if rec.Kind == trace.Probe {
			continue
		}
		b = rec.AppendTo(b[:0])
		if !bytes.Contains(b, []byte(e.Subject)) {
			continue
		}
		times = append(times, strconv.FormatInt(rec.Time, 10))
		if e.Time == nil || rec.Time == e.Time.Ms() {
			n++
		}
	}
	r.checkCount(e, n, fmt.Sprintf("records containing %q %s", e.Subject, v.when), times)
}
