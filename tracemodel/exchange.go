package tracemodel

import (
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// Request is one waterfall event the host delivered (a user-questions/request), keyed
// by its event id: the call its wait names (nil for a request without a wait call id),
// the deliveries to clients and the clients' outcomes.
type Request struct {
	EventID    string
	Agent      string
	Call       *Call
	Deliveries []Delivery
	Outcomes   []int // the host's event-result records, in order

	read      bool // its payload was read (once: replays carry the same)
	waitCall  string
	questions []wire.Question
}

// readPayload reads a question request's payload the first time its event id is seen (an
// event id is one request: its replays carry the same payload); other events carry none.
func (q *Request) readPayload(fr wire.Waterfall) {
	if q.read || fr.Event != wire.EventQuestionsRequest {
		return
	}
	q.read = true
	req, err := wire.ParseQuestionRequest(fr.Request)
	if err == nil && req.Wait != nil && req.Wait.CallID != "" {
		q.waitCall, q.questions = req.Wait.CallID, req.Questions
	}
}

// Asked is what a question request tied to a call asks: the call id of its wait and its
// questions, as its payload carries them. "" and nil for a request tied to no call (no
// wait, an unreadable payload) and for other events.
func (q *Request) Asked() (callID string, questions []wire.Question) {
	return q.waitCall, q.questions
}

// Delivery is one send of the request to a client's generation.
type Delivery struct {
	Client string
	Gen    int
	Rec    int
}

// Direct is one direct call of the question service (ask, askTimed, answer) and its
// result.
type Direct struct {
	Cmd    wire.Direct
	CallID string // the body's callId (for an ask, its wait's callId when it has one)
	Call   *Call  // the call it asks or answers (nil: an answer for a call not seen)
	Rec    int
	Result int // the direct-result record; -1: none
	Err    *wire.Error
	Value  []byte
}

// RPC is one HTTP call of a client to the host (the host's Call command) and its reply.
type RPC struct {
	Client, RPCID, Endpoint string
	Gen                     int
	Agent, CallID           string // its args' agentId and callId
	Call                    *Call  // the question call those name, when known then
	Rec                     int
	Reply                   int // the host's reply record; -1: none
	Envelope                wire.Envelope
}

// Fault is an injected fault's record.
type Fault struct {
	Rec      int
	Injected trace.Injected
}

// Restart is a host restart: Crash when a crash fault was recorded just before it (at
// the same instant), CutAfter the effects of the Apply before it that happened (-1: all).
type Restart struct {
	Rec      int
	Crash    bool
	CutAfter int
}
