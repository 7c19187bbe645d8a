package wire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The client vocabulary's samples: one value of every client input, user action and
// client effect kind with its exact JSON line, a client state and client configs. The
// table tests and the schema test read these; the from-host samples carry every frame
// sample of the host vocabulary (a client receives what a send-frame effect carries).

type clientInputSample struct {
	name string
	in   ClientInput
	json string
}

type clientEffectSample struct {
	name string
	e    ClientEffect
	json string
}

func clientInputSamples() []clientInputSample {
	out := []clientInputSample{
		{"from-http ok", FromHTTP{RPCID: "a-r1", Envelope: Envelope{OK: true, Value: raw(`true`)}}, `{"kind":"from-http","rpcId":"a-r1","envelope":{"ok":true,"value":true}}`},
		{"from-http failure", FromHTTP{RPCID: "a-r2", Envelope: Envelope{Error: &RemoteError{Code: "REPLY_QUEUED", Message: "queued"}}},
			`{"kind":"from-http","rpcId":"a-r2","envelope":{"ok":false,"error":{"code":"REPLY_QUEUED","message":"queued"}}}`},
		{"link-down", LinkDown{}, `{"kind":"link-down"}`},
		{"reload", Reload{}, `{"kind":"reload"}`},
		{"tick", ClientTick{}, `{"kind":"tick"}`},
		{"user every field", User{Action: UserAction{Kind: ActType, Session: "s1", Card: "c1", Question: "pkg", Label: "x", Text: "yarn \"2\""}},
			`{"kind":"user","action":{"kind":"type","session":"s1","card":"c1","question":"pkg","label":"x","text":"yarn \"2\""}}`},
	}
	for _, k := range UserActionKinds() {
		out = append(out, clientInputSample{"user " + k, User{Action: UserAction{Kind: k}}, `{"kind":"user","action":{"kind":"` + k + `"}}`})
	}
	for _, s := range effectSamples {
		if f, ok := s.e.(SendFrame); ok {
			i := strings.Index(s.json, `"frame":`)
			out = append(out, clientInputSample{"from-host " + s.name, FromHost{Frame: f.Frame},
				`{"kind":"from-host","frame":` + s.json[i+len(`"frame":`):]})
		}
	}
	return out
}

var clientEffectSamples = []clientEffectSample{
	{"dial", Dial{}, `{"kind":"dial"}`},
	{"send-result answers", SendResult{Gen: 1, RPCID: "a-r1", EventID: "e1", Outcome: Outcome{Kind: OutcomeResult, Value: raw(`{"answers":[]}`)}},
		`{"kind":"send-result","gen":1,"rpcId":"a-r1","eventId":"e1","outcome":{"kind":"result","value":{"answers":[]}}}`},
	{"send-result next", SendResult{Gen: 2, RPCID: "a-r2", EventID: "e2", Outcome: Outcome{Kind: OutcomeNext}},
		`{"kind":"send-result","gen":2,"rpcId":"a-r2","eventId":"e2","outcome":{"kind":"next"}}`},
	{"send-result rejected", SendResult{Gen: 1, RPCID: "a-r3", EventID: "e1", Outcome: Outcome{Kind: OutcomeRejected, Error: &Error{Name: UserQuestionErrorName, Code: AskTimedOut, Message: "timed out"}}},
		`{"kind":"send-result","gen":1,"rpcId":"a-r3","eventId":"e1","outcome":{"kind":"rejected","error":{"name":"UserQuestionError","code":"ASK_TIMED_OUT","message":"timed out"}}}`},
	{"open-stream", OpenStream{Gen: 1, StreamID: "a-s1", Endpoint: "userQuestions/attachWait", Args: raw(`{"agentId":"s1","callId":"c1"}`)},
		`{"kind":"open-stream","gen":1,"streamId":"a-s1","endpoint":"userQuestions/attachWait","args":{"agentId":"s1","callId":"c1"}}`},
	{"open-stream raw args", OpenStream{Gen: 1, StreamID: "a-s2", Endpoint: "x", Args: raw(`{bad`)},
		`{"kind":"open-stream","gen":1,"streamId":"a-s2","endpoint":"x","argsRaw":"{bad"}`},
	{"cancel-stream", CancelStream{Gen: 1, StreamID: "a-s1"}, `{"kind":"cancel-stream","gen":1,"streamId":"a-s1"}`},
	{"send-call", SendCall{Gen: 1, RPCID: "a-r4", Endpoint: "userQuestions/answer", Args: raw(`{"agentId":"s1"}`)},
		`{"kind":"send-call","gen":1,"rpcId":"a-r4","endpoint":"userQuestions/answer","args":{"agentId":"s1"}}`},
	{"send-call no args", SendCall{Gen: 3, RPCID: "a-r5", Endpoint: "inbox/discard"}, `{"kind":"send-call","gen":3,"rpcId":"a-r5","endpoint":"inbox/discard"}`},
}

var clientStateSample = ClientState{Client: "a", Gen: 2, Connected: true,
	Cards: []CardState{
		{Key: "question:s1:c1", Session: "s1", CallID: "c1", Kind: "question", State: "open", WaitState: WaitStateCounting,
			Countdown: &Countdown{RemainingMs: 3010, Running: true}, Channel: ChannelWaterfall, Shown: true, Seat: true, Focus: true,
			Busy: true, Hint: "The answer did not arrive; submit it again.", Index: 1, Draft: "{pkg=[bun] env=-}", Questions: sampleQuestions},
		{Key: "question:k:1", Session: "s1", Kind: "question", State: "continued", WaitState: WaitStateContinued, Channel: ChannelNone, Closed: true},
	},
	Drafts: []DraftState{{Session: "s1", Key: "question:s1:c1", JSON: `{"index":1}`}},
	Rows: []RowState{{Session: "s1", CallID: "c1", Summary: "1/2 answered", State: "ok", Action: "View answers", Transcript: []string{"Q: A", "R: Not answered"}, Expanded: true},
		{Session: "s1", CallID: "c2", Summary: "waiting", State: "running"}},
	Nodes: []NodeState{{Session: "s1", Seq: 9, CallID: "c1", Lines: []string{"Q: A"}, MessageID: "m3", Time: 5010, Outcome: "answered", Questions: sampleQuestions[:1]},
		{Session: "s1", Seq: 12, CallID: "c2", Text: "not json"}},
	Conversation: []ConvEntry{{Session: "s1", Kind: ConvTurn, Seq: 1, Turn: 1, Ref: "1", Folded: true, Visible: true},
		{Session: "s1", Kind: ConvReply, Seq: 9, Turn: 1, Depth: 2, Ref: "c1"}},
}

const clientStateSampleJSON = `{"client":"a","gen":2,"connected":true,"cards":[` +
	`{"key":"question:s1:c1","session":"s1","callId":"c1","kind":"question","state":"open","waitState":"counting","countdown":{"remainingMs":3010,"running":true},` +
	`"channel":"waterfall","shown":true,"seat":true,"focus":true,"busy":true,"hint":"The answer did not arrive; submit it again.","index":1,"draft":"{pkg=[bun] env=-}","questions":` + sampleQuestionsJSON + `},` +
	`{"key":"question:k:1","session":"s1","kind":"question","state":"continued","waitState":"continued","channel":"none","closed":true,"index":0,"questions":[]}],` +
	`"drafts":[{"session":"s1","key":"question:s1:c1","json":"{\"index\":1}"}],` +
	`"rows":[{"session":"s1","callId":"c1","summary":"1/2 answered","state":"ok","action":"View answers","transcript":["Q: A","R: Not answered"],"expanded":true},` +
	`{"session":"s1","callId":"c2","summary":"waiting","state":"running","transcript":[]}],` +
	`"nodes":[{"session":"s1","seq":9,"callId":"c1","lines":["Q: A"],"messageId":"m3","time":5010,"outcome":"answered","questions":[` + sampleQuestionJSON + `]},` +
	`{"session":"s1","seq":12,"callId":"c2","text":"not json","lines":[],"time":0,"questions":[]}],` +
	`"conversation":[{"session":"s1","kind":"turn","seq":1,"turn":1,"depth":0,"ref":"1","folded":true,"visible":true},` +
	`{"session":"s1","kind":"reply","seq":9,"turn":1,"depth":2,"ref":"c1"}]}`

var clientConfigSamples = []struct {
	c    ClientConfig
	json string
}{
	{ClientConfig{Name: "a"}, `{"name":"a"}`},
	{ClientConfig{Name: "b", TickMs: 250, Seed: 18446744073709551615, Drafts: []DraftState{{Session: "s1", Key: "question:s1:c1", JSON: "{}"}}},
		`{"name":"b","tickMs":250,"seed":"18446744073709551615","drafts":[{"session":"s1","key":"question:s1:c1","json":"{}"}]}`},
}

func TestConformClientInputJSONIsExactAndRoundTrips(t *testing.T) {
	for _, s := range clientInputSamples() {
		t.Run(s.name, func(t *testing.T) {
			got, err := AppendClientInputJSON(nil, s.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != s.json {
				t.Fatalf("encode\n got %s\nwant %s", got, s.json)
			}
			back, err := DecodeClientInput([]byte(s.json))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(s.in, back); d != "" {
				t.Fatalf("decode (-want +got):\n%s", d)
			}
			if back.String() != s.in.String() {
				t.Fatalf("String %q, want %q", back.String(), s.in.String())
			}
		})
	}
}

func TestConformClientEffectJSONIsExactAndRoundTrips(t *testing.T) {
	for _, s := range clientEffectSamples {
		t.Run(s.name, func(t *testing.T) {
			got, err := AppendClientEffectJSON(nil, s.e)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != s.json {
				t.Fatalf("encode\n got %s\nwant %s", got, s.json)
			}
			back, err := DecodeClientEffect([]byte(s.json))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(s.e, back); d != "" {
				t.Fatalf("decode (-want +got):\n%s", d)
			}
			if back.String() != s.e.String() {
				t.Fatalf("String %q, want %q", back.String(), s.e.String())
			}
		})
	}
}

func TestConformClientStateAndConfigJSONAreExactAndRoundTrip(t *testing.T) {
	got := AppendClientStateJSON(nil, clientStateSample)
	if string(got) != clientStateSampleJSON {
		t.Fatalf("encode\n got %s\nwant %s", got, clientStateSampleJSON)
	}
	back, err := DecodeClientState(got)
	if err != nil {
		t.Fatal(err)
	}
	// An empty list decodes to nil: compare with the sample's empty lists as nil.
	want := clientStateSample
	want.Rows = append([]RowState(nil), want.Rows...)
	want.Rows[1].Transcript = nil
	if d := cmp.Diff(want, back); d != "" {
		t.Fatalf("decode (-want +got):\n%s", d)
	}
	for _, s := range clientConfigSamples {
		got := AppendClientConfigJSON(nil, s.c)
		if string(got) != s.json {
			t.Fatalf("encode\n got %s\nwant %s", got, s.json)
		}
		back, err := DecodeClientConfig(got)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(s.c, back); d != "" {
			t.Fatalf("decode (-want +got):\n%s", d)
		}
	}
}

func TestConformClientSamplesCoverEveryKind(t *testing.T) {
	check := func(what string, known []string, lines []string) {
		seen := map[string]bool{}
		for _, l := range lines {
			seen[kindOf(l)] = true
		}
		for _, k := range known {
			if !seen[k] {
				t.Errorf("no %s sample of kind %q", what, k)
			}
		}
	}
	var ins, frames, actions, effs []string
	for _, s := range clientInputSamples() {
		ins = append(ins, s.json)
		if i := strings.Index(s.json, `"frame":`); i >= 0 {
			frames = append(frames, s.json[i+len(`"frame":`):])
		}
		if i := strings.Index(s.json, `"action":`); i >= 0 {
			actions = append(actions, s.json[i+len(`"action":`):])
		}
	}
	for _, s := range clientEffectSamples {
		effs = append(effs, s.json)
	}
	check("client input", clientInputKinds, ins)
	check("from-host frame", frameKinds, frames)
	check("user action", UserActionKinds(), actions)
	check("client effect", clientEffectKinds, effs)
}

func TestConformClientDecodersAreStrict(t *testing.T) {
	cases := []struct{ in, err string }{
		{`{"kind":"user","action":{"kind":"dance"}}`, `input.action.kind: unknown user action kind "dance"`},
		{`{"kind":"warp"}`, `input.kind: unknown client input kind "warp"`},
		{`{"kind":"reload","x":1}`, `unknown key "x"`},
		{`{"kind":"from-http","rpcId":"r"}`, `missing key "envelope"`},
		{`{"kind":"from-host","frame":{"kind":"ready","gen":1.5}}`, `input.frame.gen`},
	}
	for _, c := range cases {
		_, err := DecodeClientInput([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one containing %q", c.in, err, c.err)
		}
	}
	effs := []struct{ in, err string }{
		{`{"kind":"teleport"}`, `effect.kind: unknown client effect kind "teleport"`},
		{`{"kind":"cancel-stream","gen":1}`, `missing key "streamId"`},
		{`{"kind":"send-result","gen":1,"rpcId":"r","eventId":"e","outcome":{"kind":"maybe"}}`, `unknown outcome kind "maybe"`},
	}
	for _, c := range effs {
		_, err := DecodeClientEffect([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one containing %q", c.in, err, c.err)
		}
	}
	if _, err := DecodeClientConfig([]byte(`{"name":"a","seed":"007"}`)); err == nil || !strings.Contains(err.Error(), "config.seed") {
		t.Errorf("a seed with leading zeros: %v", err)
	}
	if _, err := DecodeClientState([]byte(`{"client":"a","gen":1,"cards":[{"key":"k"}]}`)); err == nil || !strings.Contains(err.Error(), "state.cards[0]") {
		t.Errorf("a card without its keys: %v", err)
	}
	if _, err := AppendClientInputJSON(nil, User{Action: UserAction{Kind: "dance"}}); err == nil {
		t.Error("an unknown user action kind was encoded")
	}
}

// The questions of sampleView in their JSON form (the codec writes a card's and a node's
// questions as the view does).
const (
	sampleQuestionJSON  = `{"id":"pkg","question":"Which package manager?","detail":"for the repo","header":"Setup","options":[{"label":"npm","description":"the default"},{"label":"bun"}],"multiSelect":false}`
	sampleQuestionsJSON = `[` + sampleQuestionJSON + `,{"id":"plan","question":"Approve the plan?","intent":{"kind":"plan-review","approve":"Yes","callId":"c0"}}]`
)
