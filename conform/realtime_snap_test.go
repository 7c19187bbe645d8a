package conform

import (
	"strings"
	"testing"

	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
)

func TestSnapperWindows(t *testing.T) {
	// early 5, late 50, the step sent 10ms late: an instant may land in [ref−5, ref+60], a
	// duration within 65 either way. The slack is the distance beyond those 10ms: the host
	// may read its time anywhere between the virtual time and when the step was sent.
	cases := []struct {
		name      string
		duration  bool
		got, want int64
		miss      bool
		slack     int64
	}{
		{"an instant on time stays", false, 1000, 1000, false, 0},
		{"an instant at the step's send time snaps with no slack", false, 1010, 1000, false, 0},
		{"an instant 60ms late (late + the step's lateness) snaps", false, 1060, 1000, false, 50},
		{"an instant 61ms late is left and reported", false, 1061, 1061, true, 51},
		{"an instant 5ms early snaps", false, 995, 1000, false, 5},
		{"an instant 6ms early is left and reported", false, 994, 994, true, 6},
		{"a remaining time 65ms short snaps", true, 935, 1000, false, 55},
		{"a remaining time 66ms long is left and reported", true, 1066, 1066, true, 56},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := snapper{early: 5, late: 50, lateness: 10}
			got := c.got
			if c.duration {
				s.duration(&got, 1000, "x")
			} else {
				s.instant(&got, 1000, "x")
			}
			if got != c.want || (s.miss != "") != c.miss {
				t.Fatalf("got %d (miss %q), want %d (miss %v)", got, s.miss, c.want, c.miss)
			}
			if s.maxSlack != c.slack {
				t.Errorf("slack %d, want %d", s.maxSlack, c.slack)
			}
		})
	}
	t.Run("a time snapped once snaps again later with no lateness (a reset frame, the state)", func(t *testing.T) {
		seen := map[[2]int64]bool{}
		first := snapper{early: 5, late: 50, lateness: 40, seen: seen}
		got := int64(1080)
		first.instant(&got, 1000, "x")
		later := snapper{early: 5, late: 50, seen: seen}
		again, other := int64(1080), int64(1081)
		later.instant(&again, 1000, "x")
		later.instant(&other, 1000, "x")
		if got != 1000 || again != 1000 || other != 1081 || later.miss == "" {
			t.Fatalf("first %d, again %d, other %d (miss %q)", got, again, other, later.miss)
		}
	})
}

func TestSnapperEffects(t *testing.T) {
	ev := func(seq int, tm int64) session.Event {
		return session.Event{Seq: seq, Time: tm, Data: session.StepEnd{Turn: 1, Step: 1}}
	}
	ref := []wire.Effect{
		wire.Appended{Session: "s1", Event: ev(3, 1000)},
		wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitClaimed, Remaining: 900, Claims: 1},
		wire.SendFrame{Client: "a", Gen: 1, Frame: wire.StreamItem{StreamID: "a-s1", Value: []byte(`{"remainingMs":900}`)}},
		wire.SendFrame{Client: "a", Gen: 1, Frame: wire.SessionUpdate{Session: "s1", From: 3, Events: []session.Event{ev(3, 1000)}}},
		wire.Appended{Session: "s1", Event: ev(4, 1000)},
		wire.Appended{Session: "s1", Event: ev(5, 1000)},
	}
	got := []wire.Effect{
		wire.Appended{Session: "s1", Event: ev(3, 1012)},
		wire.WaitNote{Session: "s1", CallID: "c1", Kind: wire.WaitClaimed, Remaining: 890, Claims: 1},
		wire.SendFrame{Client: "a", Gen: 1, Frame: wire.StreamItem{StreamID: "a-s1", Value: []byte(`{"remainingMs":890}`)}},
		wire.SendFrame{Client: "a", Gen: 1, Frame: wire.SessionUpdate{Session: "s1", From: 3, Events: []session.Event{ev(3, 1012)}}},
		wire.Persisted{Session: "s1", Through: 4}, // not the reference's kind: snapping stops here
		wire.Appended{Session: "s1", Event: ev(5, 1010)},
	}
	s := snapper{early: 5, late: 50}
	s.effects(got, ref)
	for i := 0; i < 4; i++ {
		if got[i].String() != ref[i].String() {
			t.Errorf("effect %d: %s, want the reference's %s", i, got[i], ref[i])
		}
	}
	if e := got[5].(wire.Appended); e.Event.Time != 1010 {
		t.Errorf("an effect after the two runs part was snapped: %s", e)
	}
	if s.maxSlack != 12 || s.miss != "" {
		t.Errorf("slack %d, miss %q", s.maxSlack, s.miss)
	}

	t.Run("a stream item whose text differs in more than the number is left", func(t *testing.T) {
		s := snapper{early: 5, late: 50}
		v := s.remainingValue([]byte(`{"remainingMs": 890}`), []byte(`{"remainingMs":900}`), "x")
		if string(v) != `{"remainingMs": 890}` {
			t.Fatalf("snapped to %s", v)
		}
		v = s.remainingValue([]byte(`{"remainingMs":890,"x":1}`), []byte(`{"remainingMs":900}`), "x")
		if string(v) != `{"remainingMs":890,"x":1}` {
			t.Fatalf("snapped to %s", v)
		}
	})
	t.Run("a wait's deadline in the state, off by more than the tolerance, is reported", func(t *testing.T) {
		s := snapper{early: 5, late: 50}
		st := wire.HostState{Waits: []wire.WaitState{{Session: "s1", CallID: "c1", Deadline: 3100, TimerAt: -1}}}
		s.state(&st, wire.HostState{Waits: []wire.WaitState{{Session: "s1", CallID: "c1", Deadline: 3000, TimerAt: 3000}}})
		if st.Waits[0].Deadline != 3100 || st.Waits[0].TimerAt != -1 || !strings.Contains(s.miss, "the deadline of wait s1/c1 is 3100 on the host's clock, +100ms from the reference's 3000") {
			t.Fatalf("%+v, miss %q", st.Waits[0], s.miss)
		}
	})
}
