package tracemodel

import "github.com/twosettle/twosettle/engine/wire"

// ResultKind is how a question call's result came out.
type ResultKind uint8

// Result kinds.
const (
	// Answered: the result carries the user's answers (or a service answer()'s value).
	Answered ResultKind = iota + 1
	// Pending: the timed wait ran out; the question stays answerable (a pending result).
	Pending
	// Failed: an error result.
	Failed
)

var resultNames = [...]string{Answered: "answered", Pending: "pending", Failed: "failed"}

func (k ResultKind) String() string {
	if int(k) < len(resultNames) && resultNames[k] != "" {
		return resultNames[k]
	}
	return "none"
}

// Result is a tool result, a run_code sub-call's dispatch result or a direct service
// call's result, as the model reads it.
type Result struct {
	Kind ResultKind
	Code string // the error code of a failed result
}

// ReadResult classifies a result: failed when isError, else pending when its text is
// pending (wire.IsPendingResult), else answered.
func ReadResult(text string, isError bool, code string) Result {
	switch {
	case isError:
		return Result{Kind: Failed, Code: code}
	case wire.IsPendingResult(text):
		return Result{Kind: Pending}
	}
	return Result{Kind: Answered}
}
