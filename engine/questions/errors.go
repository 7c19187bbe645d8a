package questions

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// The service's UserQuestionErrors (docs/PEER.md §4.7). Codes are the decision's; the CALLER_NOT_LIVE
// and DELEGATED_CALLER messages are model-facing literals, byte-identical with the
// implementation the decision was taken from (docs/PEER.md §10);
// the other messages are the reference engine's own.

func errAskAborted() *wire.Error { return wire.QuestionError(wire.AskAborted, wire.MsgAskAborted) }

func errAskTimedOut() *wire.Error { return wire.QuestionError(wire.AskTimedOut, wire.MsgAskTimedOut) }

func errEmptyQuestions() *wire.Error {
	return wire.QuestionError(wire.EmptyQuestions, "ask_user_question needs at least one question")
}

func errNoProvider() *wire.Error {
	return wire.QuestionError(wire.NoProvider, "no answerer is available for ask_user_question")
}

// MsgCallerNotLive is the CALLER_NOT_LIVE message (CALLER-1).
const MsgCallerNotLive = "human interaction requires the exact live calling agent when an agent is supplied"

func errCallerNotLive() *wire.Error {
	return wire.QuestionError(wire.CallerNotLive, MsgCallerNotLive)
}

// MsgDelegatedCaller is the DELEGATED_CALLER message (CALLER-2): it tells the child to put
// the open question into its final result.
const MsgDelegatedCaller = "human interaction is unavailable while the calling agent is owned by another live agent; " +
	"include the unresolved question or decision in the child agent's final result"

func errDelegatedCaller() *wire.Error {
	return wire.QuestionError(wire.DelegatedCaller, MsgDelegatedCaller)
}

func errBadIntentApprove(id string) *wire.Error {
	return wire.QuestionError(wire.BadIntent, "question "+wire.JSONString(id)+
		" has a plan-review intent whose approve label is not one of its options")
}

func errBadIntentDetail(id string) *wire.Error {
	return wire.QuestionError(wire.BadIntent, "question "+wire.JSONString(id)+
		" has a plan-review intent but no detail to review")
}

func errBadTimeout() *wire.Error {
	return wire.QuestionError(wire.BadTimeout, "timeoutMs must be an integer from 1 to 2147483647")
}

func errDuplicateWait(callID string) *wire.Error {
	return wire.QuestionError(wire.DuplicateWait, "a timed question wait is already live for call "+wire.JSONString(callID))
}

func errReplyQueued(callID string) *wire.Error {
	return wire.QuestionError(wire.ReplyQueued, "a reply for call "+wire.JSONString(callID)+" is already waiting to be admitted")
}

func errBadAnswer(callID string, n int) *wire.Error {
	return wire.QuestionError(wire.BadAnswer, "the answer for call "+wire.JSONString(callID)+" must name each of its "+
		strconv.Itoa(n)+" question ids exactly once")
}

// Tool-level validation failures are plain Errors with no code (docs/PEER.md §2.3, §8.2).
const (
	MsgBadToolTimeout   = "timeout must be -1 or a positive integer up to 2147483 seconds"
	MsgTimedNeedsAgent  = "timed questions require a live agent"
	msgUniquePrefix     = "question id "
	msgUniqueSuffix     = " must be unique within this call"
	msgBadArgumentsHead = "invalid arguments for ask_user_question: "
)

func errDuplicateQuestionID(id string) *wire.Error {
	return wire.PlainError(msgUniquePrefix + wire.JSONString(id) + msgUniqueSuffix)
}

// errorOf turns any abort reason or failure into the wire error the engine carries. A
// *wire.Error passes through by identity; anything else becomes a plain Error.
func errorOf(err error) *wire.Error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*wire.Error); ok {
		return e
	}
	return wire.PlainError(err.Error())
}

// reasonText is how a WaitNote names a close reason: the code of a domain error, else the
// message.
func reasonText(err error) string {
	e := errorOf(err)
	if e == nil {
		return ""
	}
	if e.IsDomain() {
		return e.Code
	}
	return e.Message
}
