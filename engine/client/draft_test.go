package client

import (
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

func TestDrafts(t *testing.T) {
	t.Run("DRAFT-1 drafts survive a reload, everything else is lost", func(t *testing.T) {
		x := newH(t)
		x.timedCard(0, 30000)
		x.user(100, wire.ActType, "text=pnpm")
		before := x.c.State().Drafts
		if len(before) != 1 || before[0].Key != "question:s1:c1" || before[0].Session != "s1" {
			t.Fatal(before)
		}
		expect(t, x.at(200, wire.Reload{}), "dial")
		st := x.c.State()
		if len(st.Cards) != 0 || len(st.Rows) != 0 || st.Connected || st.Gen != 0 {
			t.Fatalf("a reload keeps only the draft store: %+v", st)
		}
		if len(st.Drafts) != 1 || st.Drafts[0] != before[0] {
			t.Fatal(st.Drafts)
		}
		// The stream of the old page is unknown now.
		expect(t, x.at(300, end("c1-s1")))
		x.at(400, ready(2))
		x.at(400, wf("e1", "s1", "c1", "timed", qPkg))
		x.at(400, item("c1-s2", 5000))
		if k := x.card("c1"); k.Draft != `{pkg=[]+"pnpm"}` || k.WaitState != wire.WaitStateEditing {
			t.Fatal(k)
		}
	})
	t.Run("DRAFT-1 drafts are never shared between clients", func(t *testing.T) {
		a, b := newHWith(t, Config{Name: "a"}), newHWith(t, Config{Name: "b"})
		for _, x := range []*h{a, b} {
			x.at(0, ready(1))
			x.at(0, wf("e1", "s1", "c1", "keyed", qPkg))
		}
		a.user(10, wire.ActChoose, "label=bun")
		if len(b.c.State().Drafts) != 0 || b.card("c1").Draft != "{pkg=-}" {
			t.Fatal(b.c.State())
		}
	})
	t.Run("DRAFT-2 a stored draft is used only if it fits the card's questions", func(t *testing.T) {
		good := progress{drafts: []qdraft{{selected: []string{"npm"}}, {custom: "demo"}}, index: 1}.encode()
		cases := []struct {
			name, json string
			fits       bool
		}{
			{"fits", good, true},
			{"not json", `{"drafts":`, false},
			{"not an object", `[1]`, false},
			{"too few drafts", `{"drafts":[{"selected":[],"custom":"","skipped":false}],"index":0}`, false},
			{"index out of range", `{"drafts":[{"selected":[],"custom":"","skipped":false},{"selected":[],"custom":"","skipped":false}],"index":2}`, false},
			{"index not an integer", `{"drafts":[{"selected":[],"custom":"","skipped":false},{"selected":[],"custom":"","skipped":false}],"index":0.5}`, false},
			{"unknown wait", `{"drafts":[{"selected":[],"custom":"","skipped":false},{"selected":[],"custom":"","skipped":false}],"index":0,"wait":"later"}`, false},
			{"selected not strings", `{"drafts":[{"selected":[1],"custom":"","skipped":false},{"selected":[],"custom":"","skipped":false}],"index":0}`, false},
			{"custom missing", `{"drafts":[{"selected":[],"skipped":false},{"selected":[],"custom":"","skipped":false}],"index":0}`, false},
			{"skipped not bool", `{"drafts":[{"selected":[],"custom":"","skipped":"no"},{"selected":[],"custom":"","skipped":false}],"index":0}`, false},
		}
		for _, tc := range cases {
			x := newHWith(t, Config{Name: "c1", Drafts: []wire.DraftState{{Session: "s1", Key: "question:s1:c1", JSON: tc.json}}})
			x.at(0, ready(1))
			x.at(0, wf("e1", "s1", "c1", "keyed", qPkg, qName))
			k := x.card("c1")
			drafts := x.c.State().Drafts
			if tc.fits {
				if k.Draft != `{pkg=[npm] name=[]+"demo"}` || k.Index != 1 || k.WaitState != wire.WaitStateEditing {
					t.Errorf("%s: %s", tc.name, k)
				}
				if len(drafts) != 1 {
					t.Errorf("%s: %v", tc.name, drafts)
				}
				continue
			}
			if k.Draft != "{pkg=- name=-}" || k.Index != 0 || k.WaitState == wire.WaitStateEditing {
				t.Errorf("%s: a draft that does not fit was used: %s", tc.name, k)
			}
			if len(drafts) != 0 {
				t.Errorf("%s: a draft that does not fit must be dropped: %v", tc.name, drafts)
			}
		}
	})
	t.Run("DRAFT-2 a stored draft with another question count is dropped", func(t *testing.T) {
		js := progress{drafts: []qdraft{{selected: []string{"npm"}}}}.encode()
		x := newHWith(t, Config{Name: "c1", Drafts: []wire.DraftState{{Session: "s1", Key: "question:s1:c1", JSON: js}}})
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "keyed", qPkg, qName)) // the call id was reused for two questions
		if d := x.card("c1").Draft; d != "{pkg=- name=-}" {
			t.Fatal(d)
		}
	})
	t.Run("DRAFT-3 a draft is cleared when its card closes", func(t *testing.T) {
		x := newH(t)
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "", "", qName))
		x.user(10, wire.ActType, "text=x")
		if len(x.c.State().Drafts) != 1 {
			t.Fatal(x.c.State().Drafts)
		}
		x.user(20, wire.ActClose)
		if len(x.c.State().Drafts) != 0 {
			t.Fatal("the closed card's draft is cleared", x.c.State().Drafts)
		}
	})
	t.Run("DRAFT-3 drafts are pruned to the live card keys on mount", func(t *testing.T) {
		stale := progress{drafts: []qdraft{{custom: "old"}}}.encode()
		live := progress{drafts: []qdraft{{selected: []string{"bun"}}}}.encode()
		x := newHWith(t, Config{Name: "c1", Drafts: []wire.DraftState{
			{Session: "s1", Key: "question:0123456789abcdef0123456789abcdef:1", JSON: stale}, // an old page's unkeyed card
			{Session: "s1", Key: "question:s1:c9", JSON: stale},                              // a call no longer live
			{Session: "s1", Key: "question:s1:c2", JSON: live},                               // continued: the update recreates it
			{Session: "s2", Key: "question:s2:c1", JSON: stale},                              // another Session's store
		}})
		x.at(0, ready(1))
		// The replayed request mounts before the first projection arrives: nothing is pruned yet.
		x.at(0, wf("e1", "s1", "c1", "keyed", qPkg))
		if n := len(x.c.State().Drafts); n != 4 {
			t.Fatalf("pruned before the projection arrived: %v", x.c.State().Drafts)
		}
		x.at(0, update("s1", view(qs(qPkg), "c1:open", "c2:continued"), noInbox))
		var keys []string
		for _, d := range x.c.State().Drafts {
			keys = append(keys, d.Key)
		}
		want := []string{"question:s1:c2", "question:s2:c1"}
		if len(keys) != 2 || keys[0] != want[0] || keys[1] != want[1] {
			t.Fatalf("kept %v, want %v", keys, want)
		}
		if d := x.card("c2").Draft; d != "{pkg=[bun]}" {
			t.Fatal(d)
		}
	})
	t.Run("DRAFT-3 a mount before the first projection prunes when it comes, even if the seat stays", func(t *testing.T) {
		stale := progress{drafts: []qdraft{{custom: "old"}}}.encode()
		x := newHWith(t, Config{Name: "c1", Drafts: []wire.DraftState{
			{Session: "s1", Key: "question:s1:c9", JSON: stale}, // settled while this client was away
		}})
		x.at(0, ready(1))
		x.at(0, wf("e1", "s1", "c1", "keyed", qPkg)) // the replayed request takes the seat
		if n := len(x.c.State().Drafts); n != 1 {
			t.Fatalf("pruned before the projection arrived: %v", x.c.State().Drafts)
		}
		// The projection lists only c1: no card is created, the seat does not move.
		x.at(0, update("s1", view(qs(qPkg), "c1:open"), noInbox))
		if !x.card("c1").Seat {
			t.Fatal(x.card("c1"))
		}
		if d := x.c.State().Drafts; len(d) != 0 {
			t.Fatalf("the stale draft survived the first projection: %v", d)
		}
	})
}
