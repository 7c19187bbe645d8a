package wire

import (
	"strings"
	"testing"
)

// An empty options list is present and empty, not absent: JSON.parse keeps "options":[]
// and the peer copies it into the reply's questions (docs/PEER.md §11.3).
func TestEmptyOptionsArePresent(t *testing.T) {
	t.Run("LATE-4 a question writes [] for an empty options list and nothing for none", func(t *testing.T) {
		qs := []Question{{ID: "a", Question: "A?", Options: []Option{}}, {ID: "b", Question: "B?"}}
		if got := string(AppendQuestionsJSON(nil, qs)); got != `[{"id":"a","question":"A?","options":[]},{"id":"b","question":"B?"}]` {
			t.Fatalf("got %s", got)
		}
	})
	t.Run("PROJ-10 the protocol codec keeps an empty options list present through a round trip", func(t *testing.T) {
		st := HostState{Sessions: []SessionState{{ID: "s1", Phase: PhaseIdle, Questions: QuestionsView{Active: []PendingRow{{CallID: "c1", State: StateContinued,
			Questions: []Question{{ID: "a", Question: "A?", Options: []Option{}}, {ID: "b", Question: "B?"}}}}}}}}
		b, err := AppendHostStateJSON(nil, st)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(string(b), `"options":[]`) != 1 {
			t.Fatalf("encoded %s", b)
		}
		back, err := DecodeHostState(b)
		if err != nil {
			t.Fatal(err)
		}
		q := back.Sessions[0].Questions.Active[0].Questions
		if q[0].Options == nil || len(q[0].Options) != 0 || q[1].Options != nil {
			t.Fatalf("decoded %#v and %#v: want present and empty, then absent", q[0].Options, q[1].Options)
		}
		again, err := AppendHostStateJSON(nil, back)
		if err != nil || string(again) != string(b) {
			t.Fatalf("re-encoded %s (%v), first %s", again, err, b)
		}
	})
}
