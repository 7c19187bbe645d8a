package questions

import "testing"

// The JSON texts the package reads on its hot paths: a timed call's arguments, a pending
// result, an answer batch, a late reply's text and a request/header's tools. Each
// benchmark reads one text the way the projection and the tool do (through a reused
// buffer, as a Memo reads), so bytes and allocations a read are the readers' own.
const (
	benchArgs    = `{"questions":[{"id":"pkg","question":"Which package manager?","header":"Setup","options":[{"label":"bun"},{"label":"npm","description":"the default"}],"multi_select":false}],"timeout":30}`
	benchPending = `{"pending":true,"callId":"c1","message":"No answer batch arrived before the timeout. This is pending, not a skipped answer."}`
	benchBatch   = `{"answers":[{"id":"pkg","selected":["bun"]},{"id":"why","selected":[],"custom":"it is fast"}]}`
	benchReply   = `{"kind":"answer_to_pending_question","tool":"ask_user_question","callId":"c1","questions":[{"id":"pkg","question":"Which package manager?","options":[{"label":"bun"},{"label":"npm"}]}],"answers":[{"id":"pkg","selected":["bun"]}]}`
	benchTools   = `[{"name":"read_file","parameters":{"type":"object","properties":{"path":{"type":"string"}}}},{"name":"ask_user_question","parameters":{"type":"object","properties":{"questions":{"type":"array"},"timeout":{"type":"integer"}}}}]`
)

func BenchmarkReadArgs(b *testing.B) {
	var m Memo
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		v, ok := m.read(benchArgs)
		if !ok {
			b.Fatal("unreadable")
		}
		if qs, ok := readQuestions(v, true); !ok || len(qs) != 1 {
			b.Fatal("no questions")
		}
	}
}

func BenchmarkReadPending(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if !isPendingText(benchPending) || isPendingText(benchBatch) {
			b.Fatal("wrong verdict")
		}
	}
}

func BenchmarkReadBatch(b *testing.B) {
	var m Memo
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if as, ok := m.readBatch(benchBatch); !ok || len(as) != 2 {
			b.Fatal("no batch")
		}
		if as, ok := m.readBatch(benchReply); !ok || len(as) != 1 {
			b.Fatal("no reply batch")
		}
	}
}

func BenchmarkReadHeaderTools(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if !headerTimed(benchTools) {
			b.Fatal("not timed")
		}
	}
}
