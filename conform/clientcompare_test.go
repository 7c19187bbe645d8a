package conform

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

// a small client trace whose minted ids, hint and verdict wording are parameters.
func clientTrace(stream, rpc, hint, verdict, summary string) *trace.Trace {
	st := wire.ClientState{Client: "a", Gen: 1, Connected: true,
		Cards: []wire.CardState{{Key: "question:s1:c1", Session: "s1", CallID: "c1", Kind: "question", State: "continued", WaitState: "continued", Channel: "rpc", Hint: hint}},
		Rows:  []wire.RowState{{Session: "s1", CallID: "c1", Summary: summary, State: "ok", Action: "Answer", Transcript: []string{verdict, "- Which package manager"}}},
	}
	recs := []trace.Record{
		{Actor: "a", Kind: trace.Out, Payload: wire.OpenStream{Gen: 1, StreamID: stream, Endpoint: "userQuestions/attachWait", Args: []byte(`{}`)}},
		{Actor: "a", Kind: trace.Out, Payload: wire.SendCall{Gen: 1, RPCID: rpc, Endpoint: "userQuestions/answer", Args: []byte(`{}`)}},
		{Actor: "a", Kind: trace.In, Payload: wire.FromHTTP{RPCID: rpc, Envelope: wire.Envelope{OK: true}}},
		{Actor: trace.ActorSim, Kind: trace.Probe, Payload: trace.Snapshot{Label: "p", Clients: []wire.ClientState{st}}},
	}
	for i := range recs {
		recs[i].Seq = i
	}
	return &trace.Trace{Seed: 1, Records: recs, Final: trace.Final{Clients: []wire.ClientState{st}}}
}

func TestComparableClientNormalisesOnlyWhatAUIMayChoose(t *testing.T) {
	ref := ComparableClient("x", clientTrace("a-s1", "a-r1", "The answer did not arrive; submit it again.", "These pending questions remain answerable from the composer.", "continued; answer still available"))
	t.Run("minted ids, hint and verdict wording are the client's own", func(t *testing.T) {
		got := ComparableClient("x", clientTrace("tab7/claim/1", "rpc-xyz", "La réponse n'est pas arrivée.", "Ces questions restent ouvertes.", "continued; answer still available"))
		if d := Divergence(ref, got); d != "" {
			t.Fatal(d)
		}
		if strings.Contains(string(got), "rpc-xyz") || !strings.Contains(string(got), "⟨r1⟩") || !strings.Contains(string(got), "⟨s1⟩") {
			t.Fatalf("ids not renamed:\n%s", got)
		}
	})
	t.Run("a state token, a missing hint or a missing verdict is a divergence", func(t *testing.T) {
		for name, tr := range map[string]*trace.Trace{
			"summary": clientTrace("a-s1", "a-r1", "h", "v", "pending"),
			"hint":    clientTrace("a-s1", "a-r1", "", "v", "continued; answer still available"),
			"verdict": clientTrace("a-s1", "a-r1", "h", "- Which package manager", "continued; answer still available"),
		} {
			if Divergence(ref, ComparableClient("x", tr)) == "" {
				t.Errorf("%s: no divergence", name)
			}
		}
	})
}
