package client

import "testing"

// The JSON texts a client reads on its hot paths: a forwarded request, a call's model
// arguments, a pending result and an answer batch, each read through the client's one
// reused reader, so bytes and allocations a read are the reader's own.
const (
	benchRequest = `{"questions":[{"id":"pkg","question":"Which package manager?","header":"Setup","options":[{"label":"bun"},{"label":"npm","description":"the default"}],"multiSelect":false}],"wait":{"callId":"c1","timed":true}}`
	benchArgs    = `{"questions":[{"id":"pkg","question":"Which package manager?","header":"Setup","options":[{"label":"bun"},{"label":"npm","description":"the default"}],"multi_select":false}],"timeout":30}`
	benchPending = `{"pending":true,"callId":"c1","message":"No answer batch arrived before the timeout. This is pending, not a skipped answer."}`
	benchBatch   = `{"answers":[{"id":"pkg","selected":["bun"]},{"id":"why","selected":[],"custom":"it is fast"}]}`
)

func BenchmarkReadRequest(b *testing.B) {
	var rd reader
	raw := []byte(benchRequest)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if r, ok := rd.parseRequest(raw); !ok || len(r.Questions) != 1 {
			b.Fatal("unreadable")
		}
	}
}

func BenchmarkReadArgs(b *testing.B) {
	var rd reader
	var blk entryBlock
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if qs, ok := rd.questionEntries(benchArgs, &blk); !ok || len(qs) != 1 {
			b.Fatal("unreadable")
		}
	}
}

func BenchmarkReadPending(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if !isPendingResult(benchPending) || isPendingResult(benchBatch) {
			b.Fatal("wrong verdict")
		}
	}
}

func BenchmarkReadBatch(b *testing.B) {
	var rd reader
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if as, ok := rd.answerEntries(benchBatch); !ok || len(as) != 2 {
			b.Fatal("unreadable")
		}
	}
}
