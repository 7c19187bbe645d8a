package questions

import (
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// The model-facing schemas of ask_user_question, as the host records them in
// request/header tools: {name, description, parameters}. The timed schema adds an integer
// timeout (TOOL-2); the projection recognises it by that key (PROJ-2).

// LegacyDescription is the legacy tool's description (docs/PEER.md §2.2).
const LegacyDescription = "Ask the user a concise question when you need confirmation, a choice, or missing information."

// TimedDescription is the timed tool's description (docs/PEER.md §2.3).
const TimedDescription = "Ask the user one or more questions, each with a distinct stable id. " +
	"A submitted skip is an item with empty selected and no custom. " +
	"A pending result means no batch arrived before the timeout while the user can still answer."

const questionsParam = `"questions":{"type":"array","description":"Questions to ask the user before continuing.",` +
	`"items":{"type":"object","properties":{` +
	`"id":{"type":"string"},"question":{"type":"string"},"header":{"type":"string"},` +
	`"options":{"type":"array","items":{"type":"object","properties":{` +
	`"label":{"type":"string"},"description":{"type":"string"}},"required":["label"]}},` +
	`"multi_select":{"type":"boolean"}},"required":["id","question"]}}`

// legacySchema is the legacy tool definition.
func legacySchema() []byte {
	b := []byte(`{"name":"` + ToolName + `","description":`)
	b = wire.AppendJSONString(b, LegacyDescription)
	b = append(b, `,"parameters":{"type":"object","properties":{`+questionsParam+`},"required":["questions"]}}`...)
	return b
}

// TimeoutDescription is the timed schema's timeout description for configured default def.
func TimeoutDescription(def int) string {
	return "Wait seconds for the entire batch (default " + strconv.Itoa(def) + "). " +
		"Leave it out unless the user gives a duration; use -1 only when an answer is required before proceeding."
}

// timedSchema is the timed tool definition for configured default def.
func timedSchema(def int) []byte {
	b := []byte(`{"name":"` + ToolName + `","description":`)
	b = wire.AppendJSONString(b, TimedDescription)
	b = append(b, `,"parameters":{"type":"object","properties":{`+questionsParam+`,"timeout":{"type":"integer","description":`...)
	b = wire.AppendJSONString(b, TimeoutDescription(def))
	b = append(b, `}},"required":["questions"]}}`...)
	return b
}
