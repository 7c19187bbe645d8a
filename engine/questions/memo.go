package questions

import (
	"github.com/twosettle/twosettle/engine/jsonx"
	"github.com/twosettle/twosettle/engine/wire"
)

// Memo remembers the last texts this package read, so that reading the same text again
// costs nothing: a host records the same request/header tools in header after header,
// Session after Session and again on every refold, and a tool call's arguments are read
// by the projection (when tool/call is appended) and then by the tool (when its body
// runs). A host shares one Memo among its projections and its tool. Values read through a
// memo are never modified. A Memo is not safe for concurrent use (the engine has none); a
// nil *Memo remembers nothing. A Memo reuses its parse buffer from text to text, so copy
// one only before its first parse (as a host copies its default memo).
type Memo struct {
	tools string
	timed bool
	hdr   bool

	text string
	val  jsonx.Value
	ok   bool
	has  bool
	buf  jsonx.Reader // the parse buffer, reused from text to text

	scratch jsonx.Reader // the buffer of reads that are not remembered (answer batches)

	qsText string // the text whose questions were read last, and what readQuestions gave
	qs     []wire.Question
	qsOK   bool
	hasQs  bool

	batchText string // the last tool result text and the answers it encodes
	batch     []wire.AnswerItem
	hasBatch  bool
}

// questions is readQuestions(args, minOne) for args = parse(text), remembered for the
// last text: the projection reads a call's questions when tool/call is appended and the
// tool reads them again when its body runs. The questions are shared (never modified).
// readQuestions(args, true) is readQuestions(args, false) refused when empty.
func (m *Memo) questions(text string, args jsonx.Value, minOne bool) ([]wire.Question, bool) {
	if m == nil {
		return readQuestions(args, minOne)
	}
	if !m.hasQs || m.qsText != text {
		m.qs, m.qsOK = readQuestions(args, false)
		m.qsText, m.hasQs = text, true
	}
	if minOne && m.qsOK && len(m.qs) == 0 {
		return nil, false
	}
	return m.qs, m.qsOK
}

// rememberBatch remembers that text is the encoding of answers (the tool's result text),
// so the projection's readBatch of that text, which folds the result a moment later,
// gives answers without a parse: readBatch(Answer{answers}.AppendJSON) is answers (the
// encoding writes exactly the strict items it reads, and strings round-trip).
func (m *Memo) rememberBatch(text string, answers []wire.AnswerItem) {
	if m != nil {
		m.batchText, m.batch, m.hasBatch = text, answers, true
	}
}

// readBatch is readBatch(text) through the memo's scratch buffer (not remembered, but for
// the text rememberBatch gave).
func (m *Memo) readBatch(text string) ([]wire.AnswerItem, bool) {
	if m == nil {
		return readBatch(text)
	}
	if m.hasBatch && text == m.batchText {
		return m.batch, true
	}
	return wire.ReadAnswers(text, wire.AnswerKeysOnly, &m.scratch)
}

// read is jsonx.Parse(text) through the memo's scratch buffer (not remembered): the
// value is valid until the next read or readBatch.
func (m *Memo) read(text string) (jsonx.Value, bool) {
	if m == nil {
		return jsonx.Parse(text)
	}
	return m.scratch.Parse(text)
}

// Timed is headerTimed(tools), remembered for the last tools text.
func (m *Memo) Timed(tools string) bool {
	if m == nil {
		return headerTimed(tools)
	}
	if !m.hdr || m.tools != tools {
		m.tools, m.timed, m.hdr = tools, headerTimed(tools), true
	}
	return m.timed
}

// parse is jsonx.Parse(text), remembered for the last text. The value is valid until parse
// reads another text (its buffer is reused): callers turn it into wire values at once.
func (m *Memo) parse(text string) (jsonx.Value, bool) {
	if m == nil {
		return jsonx.Parse(text)
	}
	if !m.has || m.text != text {
		m.val, m.ok = m.buf.Parse(text)
		m.text, m.has = text, true
	}
	return m.val, m.ok
}
