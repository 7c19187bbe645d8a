package agent

import (
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

// BenchmarkTurn measures one session's typical run: a prompt, a step with a sleep and a
// run_code of two sub-calls, a steer, a second step, a restart and a resume.
func BenchmarkTurn(b *testing.B) {
	var effects []wire.Effect
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		effects = effects[:0]
		rt := New(Config{WriteWindow: DefaultWriteWindow, Emit: func(e wire.Effect) { effects = append(effects, e) }})
		rt.Open("s1", "")
		rt.Send("s1", session.Message{ID: "m1", Text: "hi"}, session.NextTurn)
		rt.ToolCall("s1", "c1", ToolSleep, `{"ms":30}`)
		rt.ToolCall("s1", "c2", ToolRunCode, `{"calls":[{"name":"a","arguments":{"x":1}},{"name":"b"}]}`)
		rt.Send("s1", session.Message{ID: "m2", Text: "steer"}, session.NextStep)
		rt.EndStep("s1", true)
		rt.Fire(40)
		rt.EndStep("s1", true)
		rt.Fire(400)
		rt.Restart(nil)
		rt.Resolve("s1")
	}
	b.ReportMetric(float64(len(effects)), "effects/run")
}
