package trace

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

func TestRecordLine(t *testing.T) {
	cases := []struct {
		r    Record
		want string
	}{
		{Record{Seq: 42, Time: 5000, Actor: "host", Kind: In, Payload: wire.ToolCall{Session: "s1", CallID: "c1", Name: "ask_user_question", Args: "{}"}},
			"0042 t=5000 host in tool-call s1 call=c1 ask_user_question {}"},
		{Record{Seq: 43, Time: 5000, Actor: "c1", Kind: Out, ClientTime: 5120, Payload: wire.Dial{}}, "0043 t=5000 c1@5120 out dial"},
		{Record{Seq: 7, Time: 0, Actor: "sim", Kind: Sched, Payload: Choice{Pick: 1, Of: 3}}, "0007 t=0 sim sched pick=1 of=3"},
		{Record{Seq: 12345, Time: 9, Actor: "net", Kind: Drop, Payload: Dropped{To: "c2", Why: WhyLinkDown, What: wire.FromHost{Frame: wire.Cancel{EventID: "e1"}}}},
			"12345 t=9 net drop to=c2 why=link-down frame cancel ev=e1"},
		{Record{Seq: 0, Time: 1, Actor: "host", Kind: Reject, Payload: Rejected{Input: wire.Tick{}, Err: `bad "x"`}}, `0000 t=1 host reject tick error="bad \"x\""`},
		{Record{Seq: 999, Time: 1, Actor: "model", Kind: Note, Payload: Text("auto-end s1")}, "0999 t=1 model note auto-end s1"},
		{Record{Seq: 5, Actor: "sim", Kind: Fault, Payload: Injected{Kind: "crash", Point: "after-effect", Cut: 2, Of: 5, Random: true}}, "0005 t=0 sim fault crash point=after-effect cut=2/5 random"},
		{Record{Seq: 5, Actor: "sim", Kind: Fault, Payload: Injected{Kind: "crash", Of: -1}}, "0005 t=0 sim fault crash"},
		{Record{Seq: 5, Actor: "sim", Kind: Fault, Payload: Injected{Kind: "crash", Point: "before-answer-ack", Of: -1, Armed: true}}, "0005 t=0 sim fault arm crash point=before-answer-ack"},
		{Record{Seq: 5, Actor: "sim", Kind: Fault, Payload: Injected{Kind: "clock-jump", Target: "c1", N: -500, Of: -1}}, "0005 t=0 sim fault clock-jump c1 by=-500"},
		{Record{Seq: 5, Actor: "sim", Kind: Fault, Payload: Injected{Kind: "partition", Target: "c1", N: 300, Of: -1, NoOp: true}}, "0005 t=0 sim fault partition c1 for=300 no-op"},
		{Record{Seq: 5, Actor: "sim", Kind: Fault, Payload: Injected{Kind: "cancel-turn", Target: "s1", Keep: true, Of: -1}}, "0005 t=0 sim fault cancel-turn s1 keep-inbox"},
		{Record{Seq: 1, Actor: "sim", Kind: Kind(99)}, "0001 t=0 sim kind(99) "},
	}
	for _, c := range cases {
		if got := c.r.String(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
		if got := string(c.r.AppendTo([]byte("x"))); got != "x"+c.want {
			t.Errorf("AppendTo differs: %q", got)
		}
	}
	for _, a := range []string{"host", "net", "model", "sim", "user"} {
		if IsClient(a) {
			t.Errorf("%s is reserved", a)
		}
	}
	if !IsClient("c1") {
		t.Error("c1 is a client")
	}
}

func sampleFinal() Final {
	return Final{Time: 77, Host: wire.HostState{
		Sessions: []wire.SessionState{{ID: "s1", Persisted: 1, Live: true, Root: true, Phase: "idle",
			Log: []session.Event{{Seq: 0, Time: 3, Data: session.TurnStart{Turn: 1}}}}},
		Waits:   []wire.WaitState{{Session: "s1", CallID: "q1", Deadline: 500, Claims: 1, TimerAt: -1}},
		Clients: []wire.ConnState{{Client: "c1", Gen: 2, Streams: 1}},
		Pending: []wire.PendingEvent{{EventID: "e1", AgentID: "s1", Deliveries: []string{"c1", "c2"}}},
	}, Clients: []wire.ClientState{{Client: "c1", Gen: 2, Connected: true, Drafts: []wire.DraftState{{Key: "k", JSON: "{}"}}}}}
}

func TestFinalLines(t *testing.T) {
	want := `final t=77
session s1 parent= inherited=0 persisted=1 live=true root=true phase=idle
  #0 t=3 turn/start turn=1
  questions active=[] settled=[]
  inbox next-step=[] next-turn=[]
wait s1/q1 deadline=500 claims=1 timer=-1
conn c1.2 streams=1
pending e1 agent=s1 deliveries=c1,c2
client c1 gen=2 connected=true
  draft k {}`
	if got := strings.Join(sampleFinal().Lines(), "\n"); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDiverge(t *testing.T) {
	mk := func(n int) *Trace {
		tr := &Trace{Final: sampleFinal()}
		for i := 0; i < n; i++ {
			tr.Records = append(tr.Records, Record{Seq: i, Time: int64(i), Actor: "host", Kind: In, Payload: wire.Tick{}})
		}
		return tr
	}
	a, b := mk(5), mk(5)
	if _, diff := Diverge(a, b); diff {
		t.Fatal("identical traces diverge")
	}
	b.Records[3].Time = 99
	d, diff := Diverge(a, b)
	if !diff || d.Record != 3 || d.A != "0003 t=3 host in tick" || d.B != "0003 t=99 host in tick" {
		t.Fatalf("got %+v", d)
	}
	d, diff = Diverge(mk(5), mk(6))
	if !diff || d.Record != 5 || d.A != "" {
		t.Fatalf("a shorter trace: %+v", d)
	}
	c := mk(5)
	c.Final.Host.Waits[0].Claims = 0
	d, diff = Diverge(a, c)
	if !diff || d.Record != -1 || d.Final != 5 || !strings.Contains(d.String(), "final line 5") {
		t.Fatalf("final state: %+v", d)
	}
}

func TestTraceText(t *testing.T) {
	tr := &Trace{Records: []Record{{Seq: 0, Actor: "host", Kind: In, Payload: wire.Tick{}}, {Seq: 1, Time: 2, Actor: "c1", ClientTime: 4, Kind: In, Payload: wire.ClientTick{}}}}
	if got := tr.Text(); got != "0000 t=0 host in tick\n0001 t=2 c1@4 in tick\n" {
		t.Fatalf("%q", got)
	}
}
