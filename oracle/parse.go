package oracle

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// The oracle reads a few JSON values the host and clients exchange. Hot paths (claim
// frames, pending texts) take a byte-level fast path and fall back to encoding/json only
// for shapes that are rare in practice.

// askArgs is what the oracle needs of ask_user_question's arguments, read as the tool
// reads them (engine/questions: a JSON object whose questions array holds {id, question,
// header?, options?:[{label, description?}], multi_select?} items, every field of its
// type; the last of repeated keys counts, as JSON.parse keeps it).
type askArgs struct {
	ok          bool     // a JSON object whose questions the tool can read
	empty       bool     // ok, with no question (the service fails it: EMPTY_QUESTIONS)
	ids         []string // question ids, in order (when ok)
	dupID       string   // the first repeated id, "" if none
	hasTimeout  bool     // timeout present and not null
	timeoutOK   bool     // a number, -1 or an integer 1..2147483
	timeoutSecs float64
}

// askArgs is parseAskArgs(raw), read once per text in a Check (a restart refolds every
// log, and a text is often asked again): the result is never modified.
func (c *Checker) askArgs(raw string) askArgs {
	if a, ok := c.asks[raw]; ok {
		return a
	}
	a := parseAskArgs(raw)
	if c.asks != nil {
		c.asks[raw] = a
	}
	return a
}

func parseAskArgs(raw string) askArgs {
	top, isObj := members([]byte(raw))
	if !isObj {
		return askArgs{}
	}
	var a askArgs
	if t, ok := member(top, "timeout"); ok && jsonKind(t) != 'n' {
		a.hasTimeout = true
		if jsonKind(t) == '0' {
			if f, err := strconv.ParseFloat(string(bytes.TrimSpace(t)), 64); err == nil {
				a.timeoutSecs = f
				a.timeoutOK = f == -1 || (f >= 1 && f <= 2147483 && f == math.Trunc(f))
			}
		}
	}
	qs, ok := member(top, "questions")
	if !ok || jsonKind(qs) != '[' {
		return a
	}
	var items []json.RawMessage
	if json.Unmarshal(qs, &items) != nil {
		return a
	}
	ids := make([]string, 0, len(items))
	for _, it := range items {
		id, ok := readQuestion(it)
		if !ok {
			return a
		}
		ids = append(ids, id)
	}
	a.ok, a.empty, a.ids = true, len(ids) == 0, ids
	for i, id := range ids {
		for _, prev := range ids[:i] {
			if prev == id && a.dupID == "" {
				a.dupID = id
			}
		}
	}
	return a
}

// readQuestion checks one question item as the tool does and returns its id.
func readQuestion(raw json.RawMessage) (string, bool) {
	ms, ok := members(raw)
	if !ok {
		return "", false
	}
	id, ok1 := jsonStringMember(ms, "id")
	_, ok2 := jsonStringMember(ms, "question")
	if !ok1 || !ok2 {
		return "", false
	}
	if h, ok := member(ms, "header"); ok && jsonKind(h) != '"' {
		return "", false
	}
	if m, ok := member(ms, "multi_select"); ok && jsonKind(m) != 't' {
		return "", false
	}
	if os, ok := member(ms, "options"); ok {
		var opts []json.RawMessage
		if jsonKind(os) != '[' || json.Unmarshal(os, &opts) != nil {
			return "", false
		}
		for _, o := range opts {
			om, ok := members(o)
			if !ok {
				return "", false
			}
			if _, ok := jsonStringMember(om, "label"); !ok {
				return "", false
			}
			if d, ok := member(om, "description"); ok && jsonKind(d) != '"' {
				return "", false
			}
		}
	}
	return id, true
}

type jsonMember struct {
	key string
	val json.RawMessage
}

// members reads one JSON object's members in order; false when raw is not exactly one
// object.
func members(raw []byte) ([]jsonMember, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '{' {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var out []jsonMember
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, false
		}
		k, ok := t.(string)
		if !ok {
			return nil, false
		}
		var v json.RawMessage
		if d.Decode(&v) != nil {
			return nil, false
		}
		out = append(out, jsonMember{k, v})
	}
	if t, err := d.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, false
	}
	return out, true
}

// member is the last member called key (JSON.parse keeps the last).
func member(ms []jsonMember, key string) (json.RawMessage, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].key == key {
			return ms[i].val, true
		}
	}
	return nil, false
}

func jsonStringMember(ms []jsonMember, key string) (string, bool) {
	v, ok := member(ms, key)
	if !ok || jsonKind(v) != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// jsonKind is a JSON value's kind: '"' string, '{' object, '[' array, 't' boolean, 'n'
// null, '0' number.
func jsonKind(v []byte) byte {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return 0
	}
	switch v[0] {
	case '"', '{', '[', 'n':
		return v[0]
	case 't', 'f':
		return 't'
	}
	return '0'
}

// pendingInfo reads a text as the peer's pending test does: a JSON object whose pending
// key is true. callID is its callId when it is a string.
func pendingInfo(text string) (pending bool, callID string) {
	// fast path: no pending key can be spelt without the word or an escape
	if len(text) < 15 || !strings.Contains(text, "pending") && !strings.Contains(text, `\u`) {
		return false, ""
	}
	if jsonKind([]byte(text)) != '{' {
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

// batchNamesEach reports whether the batch names each question id exactly once (LATE-3),
// by the three checks of docs/PEER.md §4.5 step 4: no id twice in the batch, as many answers as
// questions, and every question id among them. A call whose arguments repeat an id (the
// projection keeps such a call, PROJ-3; only the tool refuses it) is answered by a batch
// that names the repeated id once and fills the count with another id.
func batchNamesEach(batch []wire.AnswerItem, ids []string) bool {
	if len(batch) != len(ids) {
		return false
	}
	named := make(map[string]bool, len(batch))
	for _, a := range batch {
		if named[a.ID] {
			return false
		}
		named[a.ID] = true
	}
	for _, id := range ids {
		if !named[id] {
			return false
		}
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
