package questions

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// The model-facing schemas of ask_user_question, as the host records them in
// request/header tools: {name, description, parameters}. The timed schema adds an integer
// timeout (TOOL-2); the projection recognises it by that key (PROJ-2).
//
// Every description the model reads is a protocol literal, byte-identical with the
// implementation the decision was taken from (docs/PEER.md §10);
// schema_test.go asserts each one exactly.

// LegacyDescription is the legacy tool's description (docs/PEER.md §2.2).
const LegacyDescription = "Ask the user a concise question when you need confirmation, a choice, or missing information before proceeding."

// TimedDescription is the timed tool's description (docs/PEER.md §2.3); its last sentence is the
// skip sentence: a skip is an answer item, pending is no batch at all.
const TimedDescription = "Ask brief, direct, self-contained questions about missing information, preferences, or decisions. " +
	"Use user-facing terms; assume no knowledge of background work or internal names. " +
	"Use distinct stable question IDs. " +
	"A submitted skipped question is an answer item with empty selected and no custom; " +
	"pending instead means no answer batch arrived before the timeout and the user can still answer."

// LegacyQuestionsDescription and TimedQuestionsDescription describe the questions parameter.
const (
	LegacyQuestionsDescription = "Questions to ask the user before continuing."
	TimedQuestionsDescription  = "Questions to ask the user."
)

// OptionsDescription describes each question's options list, in both schemas.
const OptionsDescription = `Optional choices to show the user. If you recommend one, put it first and append "(Recommended)" to that label.`

// appendQuestionsParam appends the questions parameter described by desc.
func appendQuestionsParam(b []byte, desc string) []byte {
	b = append(b, `"questions":{"type":"array","description":`...)
	b = wire.AppendJSONString(b, desc)
	b = append(b, `,"items":{"type":"object","properties":{`+
		`"id":{"type":"string"},"question":{"type":"string"},"header":{"type":"string"},`+
		`"options":{"type":"array","description":`...)
	b = wire.AppendJSONString(b, OptionsDescription)
	return append(b, `,"items":{"type":"object","properties":{`+
		`"label":{"type":"string"},"description":{"type":"string"}},"required":["label"]}},`+
		`"multi_select":{"type":"boolean"}},"required":["id","question"]}}`...)
}

// legacySchema is the legacy tool definition.
func legacySchema() []byte {
	b := []byte(`{"name":"` + ToolName + `","description":`)
	b = wire.AppendJSONString(b, LegacyDescription)
	b = append(b, `,"parameters":{"type":"object","properties":{`...)
	b = appendQuestionsParam(b, LegacyQuestionsDescription)
	b = append(b, `},"required":["questions"]}}`...)
	return b
}

// TimeoutDescription is the timed schema's timeout description for configured default def.
func TimeoutDescription(def int) string {
	return "Wait seconds for the entire batch (default " + strconv.Itoa(def) + "); " +
		"omit unless the user specifies a duration. Use -1 only when an answer is required before proceeding."
}

// timedSchema is the timed tool definition for configured default def.
func timedSchema(def int) []byte {
	b := []byte(`{"name":"` + ToolName + `","description":`)
	b = wire.AppendJSONString(b, TimedDescription)
	b = append(b, `,"parameters":{"type":"object","properties":{`...)
	b = appendQuestionsParam(b, TimedQuestionsDescription)
	b = append(b, `,"timeout":{"type":"integer","description":`...)
	b = wire.AppendJSONString(b, TimeoutDescription(def))
	b = append(b, `}},"required":["questions"]}}`...)
	return b
}
