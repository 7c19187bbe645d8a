package oracle

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// The oracle reads a few JSON values the host and clients exchange. Hot paths (claim
// frames, pending texts) take a byte-level fast path and fall back to encoding/json only
// for shapes that are rare in practice.

// askArgs is what the oracle needs of ask_user_question's arguments.
type askArgs struct {
	ok          bool     // the arguments are a readable object with a questions array
	ids         []string // question ids, in order
	dupID       string   // the first repeated id, "" if none
	hasTimeout  bool     // timeout present and not null
	timeoutOK   bool     // -1 or an integer 1..2147483
	timeoutSecs float64
}

func parseAskArgs(raw string) askArgs {
	var v struct {
		Questions []struct {
			ID string `json:"id"`
		} `json:"questions"`
		Timeout json.RawMessage `json:"timeout"`
	}
	if err := json.Unmarshal([]byte(raw), &v); err != nil || v.Questions == nil {
		return askArgs{}
	}
	a := askArgs{ok: true}
	seen := make(map[string]bool, len(v.Questions))
	for _, q := range v.Questions {
		a.ids = append(a.ids, q.ID)
		if seen[q.ID] && a.dupID == "" {
			a.dupID = q.ID
		}
		seen[q.ID] = true
	}
	t := bytes.TrimSpace(v.Timeout)
	if len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		a.hasTimeout = true
		if f, err := strconv.ParseFloat(string(t), 64); err == nil && t[0] != '"' {
			a.timeoutSecs = f
			a.timeoutOK = f == -1 || (f >= 1 && f <= 2147483 && f == math.Trunc(f))
		}
	}
	return a
}

// timedHeader reports whether a request/header's tools declare the timed schema:
// ask_user_question with an object parameters whose properties object has timeout (PROJ-2).
func timedHeader(tools string) bool {
	if !strings.Contains(tools, "ask_user_question") {
		return false
	}
	var list []map[string]json.RawMessage
	if json.Unmarshal([]byte(tools), &list) != nil {
		return false
	}
	for _, t := range list {
		var name string
		if json.Unmarshal(t["name"], &name) != nil || name != "ask_user_question" {
			continue
		}
		var params map[string]json.RawMessage
		if json.Unmarshal(t["parameters"], &params) != nil || params == nil {
			continue
		}
		var props map[string]json.RawMessage
		if json.Unmarshal(params["properties"], &props) != nil || props == nil {
			continue
		}
		if _, ok := props["timeout"]; ok {
			return true
		}
	}
	return false
}

// pendingInfo reads a text as the peer's pending test does: a JSON object whose pending
// key is true. callID is its callId when it is a string.
func pendingInfo(text string) (pending bool, callID string) {
	if len(text) < 15 || text[0] != '{' || !strings.Contains(text, `"pending"`) {
		return false, ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) != nil {
		return false, ""
	}
	if !bytes.Equal(bytes.TrimSpace(m["pending"]), []byte("true")) {
		return false, ""
	}
	_ = json.Unmarshal(m["callId"], &callID)
	return true, callID
}

// pendingMessageFragments must all appear in the pending instruction (TOOL-7).
var pendingMessageFragments = []string{
	"No answer batch arrived before the timeout.",
	"This is pending, not a skipped answer.",
	"Do not treat this as permission.",
	"answer_to_pending_question",
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

// parseBatch reads {"answers":[…]} leniently. ok is false when it is not such an object.
func parseBatch(raw []byte) ([]wire.AnswerItem, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var v struct {
		Answers *[]wire.AnswerItem `json:"answers"`
	}
	if json.Unmarshal(raw, &v) != nil || v.Answers == nil {
		return nil, false
	}
	return *v.Answers, true
}

func canonicalBatch(items []wire.AnswerItem) string {
	return string(wire.Answer{Answers: items}.AppendJSON(nil))
}

func batchEqual(a, b []wire.AnswerItem) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || !stringsEqual(a[i].Selected, b[i].Selected) || !strPtrEqual(a[i].Custom, b[i].Custom) {
			return false
		}
	}
	return true
}

// remainingMs reads a claim frame {"remainingMs":N}.
func remainingMs(v []byte) (int64, bool) {
	const p = `{"remainingMs":`
	if len(v) > len(p)+1 && string(v[:len(p)]) == p && v[len(v)-1] == '}' {
		if n, err := strconv.ParseInt(string(v[len(p):len(v)-1]), 10, 64); err == nil {
			return n, true
		}
	}
	var m struct {
		R *float64 `json:"remainingMs"`
	}
	if json.Unmarshal(v, &m) != nil || m.R == nil {
		return 0, false
	}
	return int64(*m.R), true
}

// waitArgs reads {agentId, callId} (attachWait).
func waitArgs(raw []byte) (agent, call string) {
	var v struct {
		AgentID string `json:"agentId"`
		CallID  string `json:"callId"`
	}
	_ = json.Unmarshal(raw, &v)
	return v.AgentID, v.CallID
}

// answerArgs reads the late-answer RPC args {agentId, callId, answer:{answers}} or the
// direct answer body {callId, answer:{answers}}.
type answerArgs struct {
	agent, callID string
	batch         []wire.AnswerItem
	batchOK       bool
	raw           json.RawMessage // answer.answers as received
}

func parseAnswerArgs(raw []byte) answerArgs {
	var v struct {
		AgentID string `json:"agentId"`
		CallID  string `json:"callId"`
		Answer  struct {
			Answers json.RawMessage `json:"answers"`
		} `json:"answer"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return answerArgs{}
	}
	a := answerArgs{agent: v.AgentID, callID: v.CallID, raw: v.Answer.Answers}
	if len(v.Answer.Answers) > 0 && json.Unmarshal(v.Answer.Answers, &a.batch) == nil {
		a.batchOK = true
	}
	return a
}

// batchNamesEach reports whether the batch names each id exactly once (LATE-3).
func batchNamesEach(batch []wire.AnswerItem, ids []string) bool {
	if len(batch) != len(ids) {
		return false
	}
	want := make(map[string]int, len(ids))
	for _, id := range ids {
		want[id]++
	}
	for _, a := range batch {
		if want[a.ID] != 1 {
			return false
		}
		want[a.ID] = 2
	}
	return true
}

// directBody reads the fields of a Direct body the oracle uses.
type directBody struct {
	CallID    string          `json:"callId"`
	TimeoutMs *float64        `json:"timeoutMs"`
	Aborted   bool            `json:"aborted"`
	Wait      *wire.Wait      `json:"wait"`
	Questions json.RawMessage `json:"questions"`
	Answer    struct {
		Answers json.RawMessage `json:"answers"`
	} `json:"answer"`
}

func parseDirectBody(raw []byte) directBody {
	var b directBody
	_ = json.Unmarshal(raw, &b)
	return b
}

func questionIDs(raw json.RawMessage) []string {
	var qs []struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &qs) != nil {
		return nil
	}
	ids := make([]string, len(qs))
	for i, q := range qs {
		ids[i] = q.ID
	}
	return ids
}

// domainCode returns the domain error code an RPC error envelope carries: its code when
// that is a UserQuestionError code, else a known code named in its message, else "".
func domainCode(e *wire.RemoteError) string {
	if e == nil {
		return ""
	}
	for _, c := range domainCodes {
		if e.Code == c {
			return c
		}
	}
	for _, c := range domainCodes {
		if strings.Contains(e.Message, c) {
			return c
		}
	}
	return ""
}

var domainCodes = []string{
	wire.ReplyQueued, wire.BadAnswer, wire.CallerNotLive, wire.DelegatedCaller, wire.AskAborted, wire.AskTimedOut,
	wire.AskCancelled, wire.NoProvider, wire.BadIntent, wire.EmptyQuestions, wire.BadTimeout, wire.DuplicateWait,
}

func clip(s string) string {
	if len(s) > 160 {
		return s[:157] + "..."
	}
	return s
}
