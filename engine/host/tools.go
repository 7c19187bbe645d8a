package host

import (
	"github.com/twosettle/twosettle/engine/agent"
	"github.com/twosettle/twosettle/engine/questions"
)

// The tool definitions the host records in request/header when the model's header names no
// tools of its own: ask_user_question (the questions package's schema, legacy or timed),
// and the runtime's run_code and sleep.

const runCodeSchema = `{"name":"` + agent.ToolRunCode + `","description":"Run a program whose tool calls run one after the other.",` +
	`"parameters":{"type":"object","properties":{"calls":{"type":"array","items":{"type":"object","properties":{` +
	`"name":{"type":"string"},"arguments":{"type":"object"}},"required":["name"]}}},"required":["calls"]}}`

const sleepSchema = `{"name":"` + agent.ToolSleep + `","description":"Wait ms virtual milliseconds.",` +
	`"parameters":{"type":"object","properties":{"ms":{"type":"integer"}},"required":["ms"]}}`

// The header tools of the two default configurations, built once (never written).
var (
	legacyHeader = headerTools(mustSchema(questions.ToolConfig{}))
	timedHeader  = headerTools(mustSchema(questions.ToolConfig{Mode: questions.ModeTimed}))
)

// defaultMemo has read timedHeader once; a host starts from a copy of it, so the refold of
// a default header costs nothing.
var defaultMemo = func() questions.Memo {
	var m questions.Memo
	m.Timed(timedHeader)
	return m
}()

func mustSchema(c questions.ToolConfig) []byte {
	t, err := questions.NewTool(c, nil)
	if err != nil {
		panic(err) // the default configurations are valid
	}
	return t.Schema()
}

// headerFor returns the header tools of tool.
func headerFor(tool *questions.Tool) string {
	switch {
	case !tool.Timed():
		return legacyHeader
	case tool.DefaultTimeout() == questions.DefaultTimeoutSec:
		return timedHeader
	}
	return headerTools(tool.Schema())
}

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
