package host

import "github.com/twosettle/twosettle/engine/agent"

// The tool definitions the host records in request/header when the model's header names no
// tools of its own: ask_user_question (the questions package's schema, legacy or timed),
// and the runtime's run_code and sleep.

const runCodeSchema = `{"name":"` + agent.ToolRunCode + `","description":"Run a program whose tool calls run one after the other.",` +
	`"parameters":{"type":"object","properties":{"calls":{"type":"array","items":{"type":"object","properties":{` +
	`"name":{"type":"string"},"arguments":{"type":"object"}},"required":["name"]}}},"required":["calls"]}}`

const sleepSchema = `{"name":"` + agent.ToolSleep + `","description":"Wait ms virtual milliseconds.",` +
	`"parameters":{"type":"object","properties":{"ms":{"type":"integer"}},"required":["ms"]}}`

// headerTools is the JSON array of the host's tool definitions.
func headerTools(ask []byte) string {
	b := make([]byte, 0, len(ask)+len(runCodeSchema)+len(sleepSchema)+4)
	b = append(b, '[')
	b = append(b, ask...)
	b = append(b, ',')
	b = append(b, runCodeSchema...)
	b = append(b, ',')
	b = append(b, sleepSchema...)
	return string(append(b, ']'))
}
