package oracle

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// INV-PENDING-SHAPE (TOOL-7): a pending result is exactly {"pending":true,"callId":<its
// call id>,"message":<the instruction>}, compact, in that key order, not an error, whose
// message says no batch arrived before the timeout, that it is pending and not a skipped
// answer, not permission, and names answer_to_pending_question; the service-level askTimed
// value is exactly {"pending":true,"callId":…}.

// pendingMessageFragments must all appear in the pending instruction (TOOL-7).
var pendingMessageFragments = []string{
	"No answer batch arrived before the timeout.",
	"This is pending, not a skipped answer.",
	"Do not treat this as permission.",
	"answer_to_pending_question",
}

// pendingShape judges a call's pending first settlement.
func (c *Checker) pendingShape(fg *foreground, r fgResult, rec int) {
	if r.kind != resPending {
		return
	}
	name := fg.key.session + "/" + fg.key.callID
	if r.direct {
		if want := `{"pending":true,"callId":` + wire.JSONString(fg.key.callID) + `}`; r.text != want {
			c.fail(invPendingShape, rec, name+": askTimed pending value "+clip(r.text)+", want "+want)
		}
	} else if msg := checkPendingText(r.text, fg.key.callID); msg != "" {
		c.fail(invPendingShape, rec, name+": "+msg)
	} else if r.isError {
		c.fail(invPendingShape, rec, name+": the pending result is marked as an error")
	}
}

// checkPendingText returns "" when text is exactly the pending tool result for callID.
func checkPendingText(text, callID string) string {
	prefix := `{"pending":true,"callId":` + wire.JSONString(callID) + `,"message":`
	if !strings.HasPrefix(text, prefix) || !strings.HasSuffix(text, "}") {
		return "pending text is not {\"pending\":true,\"callId\":" + wire.JSONString(callID) + ",\"message\":…}: " + clip(text)
	}
	var msg string
	rest := text[len(prefix) : len(text)-1]
	if json.Unmarshal([]byte(rest), &msg) != nil || wire.JSONString(msg) != rest {
		return "pending text has extra keys or a malformed message: " + clip(text)
	}
	for _, f := range pendingMessageFragments {
		if !strings.Contains(msg, f) {
			return "pending message lacks " + strconv.Quote(f)
		}
	}
	return ""
}
