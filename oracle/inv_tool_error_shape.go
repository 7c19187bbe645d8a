package oracle

import (
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-TOOL-ERROR-SHAPE (TOOL-9; the exact texts of TOOL-3, TOOL-5 and CALLER-2): a failure
// of ask_user_question that the tool or the service made reaches the model as a tool
// error (docs/PEER.md §2.3, §10):
//   - the result is flagged as an error and its text is "Error: " and the message;
//   - a service error keeps {name, code}: the name UserQuestionError and a code; a failure
//     of the tool's own validation keeps neither (a plain error, docs/PEER.md §8.2);
//   - where the oracle knows the cause, the exact failure: an invalid timeout (timed tool)
//     is the plain "timeout must be -1 or a positive integer up to 2147483 seconds"; a
//     repeated question id (timed tool) the plain `question id "ID" must be unique within
//     this call`; a call of a child owned by a live agent, whose arguments pass the tool,
//     UserQuestionError/DELEGATED_CALLER with its §10 message.
//
// The runtime's own results for the call are not the tool's and are not judged here:
// TOOL_ABORTED (its agent disposed mid-call), TOOL_ABORTED_BEFORE_DISPATCH (docs/PEER-RUNTIME.md
// §4.5) and the repair's TOOL_OUTCOME_UNKNOWN (§5.5).

// Model-facing texts of docs/PEER.md §10.
const (
	msgBadToolTimeout   = "timeout must be -1 or a positive integer up to 2147483 seconds"
	msgDelegatedCaller  = "human interaction is unavailable while the calling agent is owned by another live agent; include the unresolved question or decision in the child agent's final result"
	userQuestionError   = "UserQuestionError"
	toolErrorTextPrefix = "Error: "
)

// runtimeFailure reports whether a failed result is the runtime's own, not the tool's.
func runtimeFailure(r fgResult) bool {
	return r.code == "TOOL_ABORTED" || r.code == "TOOL_ABORTED_BEFORE_DISPATCH" || r.kind == resRepair
}

func (c *Checker) toolErrorShape(fg *foreground, r fgResult, rec int) {
	if !c.on(invToolErrorShape) || fg.kind == fgDirect || r.kind != resError || runtimeFailure(r) {
		return
	}
	name := fg.key.session + "/" + fg.key.callID
	fail := func(msg string) { c.fail(invToolErrorShape, rec, name+": "+msg, fg.startRec) }
	switch {
	case !r.isError:
		fail("the failure " + errShape(r) + " is not flagged as an error")
		return
	case !strings.HasPrefix(r.text, toolErrorTextPrefix):
		fail("the tool error's text " + clip(r.text) + " does not start with \"Error: \"")
		return
	case (r.name != "" || r.code != "") && (r.name != userQuestionError || r.code == ""):
		fail("the tool error keeps " + errShape(r) + ": a service error keeps {name: UserQuestionError, code}")
		return
	}
	a := fg.args
	timedTool := c.hostMode == hostTimed
	timeoutOK := !a.hasTimeout || a.timeoutOK
	want, plain := "", false
	switch {
	case !a.ok:
		plain = true // the tool cannot read the arguments: its own failure
	case timedTool && !timeoutOK:
		want, plain = toolErrorTextPrefix+msgBadToolTimeout, true
	case timedTool && a.dupID != "":
		want, plain = toolErrorTextPrefix+"question id "+wire.JSONString(a.dupID)+" must be unique within this call", true
	case fg.refused && !a.empty && timeoutOK && a.dupID == "":
		want = toolErrorTextPrefix + msgDelegatedCaller
		if r.name != userQuestionError || r.code != wire.DelegatedCaller {
			fail("a call of a child owned by a live agent failed with " + errShape(r) + ", want UserQuestionError/DELEGATED_CALLER")
			return
		}
	}
	if plain && (r.name != "" || r.code != "") {
		fail("the tool's own validation failure keeps " + errShape(r) + ": it is a plain error with no {name, code}")
		return
	}
	if want != "" && r.text != want {
		fail("tool error text " + wire.JSONString(r.text) + ", want " + wire.JSONString(want))
	}
}

// errShape is a tool result's {name, code} as text.
func errShape(r fgResult) string {
	if r.name == "" && r.code == "" {
		return "no {name, code}"
	}
	return "{name: " + wire.JSONString(r.name) + ", code: " + wire.JSONString(r.code) + "}"
}
