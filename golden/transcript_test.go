package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/trace"
)

func sample() Transcript {
	return Transcript{
		Scenario: "demo", Seed: 7,
		Records:  []string{"0000 t=0 host in open-session s1", "0001 t=0 host in connect a", "0002 t=10 a@10 in frame ready gen=1", "0003 t=5000 host in tick"},
		Final:    []string{"final t=5000", "session s1 parent= inherited=0 persisted=0 live=true root=true phase=idle", "  questions active=[] settled=[]"},
		Verdict:  []string{"oracle: ok"},
		Comments: []string{"expect 12:5 at end view: ok"},
	}
}

func TestRenderParseRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		line := rapid.StringMatching(`[a-z0-9=:/ {}\[\]"-]{0,30}`)
		tr := Transcript{
			Scenario: rapid.StringMatching(`[a-z0-9-]{1,10}`).Draw(t, "name"),
			Seed:     rapid.Uint64().Draw(t, "seed"),
			Final:    []string{"final t=" + rapid.StringMatching(`[0-9]{1,5}`).Draw(t, "t")},
		}
		for i, n := 0, rapid.IntRange(0, 5).Draw(t, "records"); i < n; i++ {
			tr.Records = append(tr.Records, rapid.StringMatching(`[0-9]{4}`).Draw(t, "seq")+" t=5 host "+line.Draw(t, "rec"))
		}
		for i, n := 0, rapid.IntRange(0, 3).Draw(t, "final"); i < n; i++ {
			tr.Final = append(tr.Final, "  "+line.Draw(t, "final"))
		}
		if rapid.Bool().Draw(t, "verdict?") {
			tr.Verdict = []string{"oracle: violation", "  INV-X at 0001: " + line.Draw(t, "why")}
		}
		for i, n := 0, rapid.IntRange(0, 2).Draw(t, "comments"); i < n; i++ {
			tr.Comments = append(tr.Comments, line.Draw(t, "comment"))
		}
		back, err := Parse(tr.Render())
		if err != nil {
			t.Fatalf("%v\n%s", err, tr.Render())
		}
		// The banner comes back as the first comment.
		if len(back.Comments) == 0 || "# "+back.Comments[0] != Banner {
			t.Fatalf("banner lost: %q", back.Comments)
		}
		back.Comments = back.Comments[1:]
		if d := cmp.Diff(tr, back, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("(-want +got)\n%s", d)
		}
	})
}

func TestParseRejectsNonTranscripts(t *testing.T) {
	for name, src := range map[string]string{
		"empty":       "",
		"no header":   "0000 t=0 host in tick\n",
		"no final":    "scenario x seed=1\n0000 t=0 host in tick\n",
		"junk record": "scenario x seed=1\nhello\nfinal t=0\n",
		"bad seed":    "scenario x seed=-1\nfinal t=0\n",
	} {
		if _, err := Parse([]byte(src)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestFromTrace(t *testing.T) {
	tr := &trace.Trace{Seed: 3, Records: []trace.Record{{Seq: 0, Time: 0, Actor: "host", Kind: trace.In, Payload: wire.Tick{}}}, Final: trace.Final{Time: 9}}
	got := FromTrace("x", tr, "oracle: ok")
	want := "# twosettle transcript: lines starting with # are diagnostics, ignored by comparison\nscenario x seed=3\n0000 t=0 host in tick\nfinal t=9\noracle: ok\n"
	if string(got.Render()) != want {
		t.Fatalf("got\n%s", got.Render())
	}
}

func TestCompareIgnoresComments(t *testing.T) {
	a := sample()
	b := sample()
	b.Comments = []string{"something else", "wall time 3ms"}
	if m := Compare(a.Render(), b.Render()); m != nil {
		t.Fatalf("comments made a difference: %s", m)
	}
	if !Equal(a.Render(), b.Render()) {
		t.Fatal("Equal disagrees with Compare")
	}
}

func TestCompareReportsTheFirstDivergentRecord(t *testing.T) {
	want, got := sample(), sample()
	got.Records[2] = "0002 t=12 a@12 in frame ready gen=1"
	got.Records[3] = "0003 t=6000 host in tick"
	m := Compare(want.Render(), got.Render())
	if m == nil {
		t.Fatal("no mismatch")
	}
	if m.Record != "0002" || m.Section != "records" || m.Line != 5 {
		t.Fatalf("mismatch at %+v", m)
	}
	s := m.String()
	for _, part := range []string{"line 5 (record 0002)", "- 0002 t=10", "+ 0002 t=12", "    0001 t=0 host in connect a", "next in the golden:", "0003 t=5000", "next in this run:", "0003 t=6000"} {
		if !strings.Contains(s, part) {
			t.Errorf("report lacks %q:\n%s", part, s)
		}
	}
	if strings.Count(s, "\n") > 4*Context+6 {
		t.Errorf("report is a wall of text:\n%s", s)
	}
}

func TestCompareOneByteChange(t *testing.T) {
	want := sample().Render()
	for i := range want {
		got := append([]byte(nil), want...)
		if got[i] == '\n' || (i > 0 && got[i-1] == '\n' && got[i] == '#') {
			continue
		}
		got[i] ^= 1
		if string(got) == string(want) {
			continue
		}
		lineStart := strings.LastIndexByte(string(want[:i]), '\n') + 1
		if want[lineStart] == '#' {
			continue // a changed comment is ignored, by design
		}
		if Compare(want, got) == nil {
			t.Fatalf("a one-byte change at %d went unnoticed", i)
		}
	}
}

func TestCompareLengthAndSections(t *testing.T) {
	want, got := sample(), sample()
	got.Records = got.Records[:3]
	m := Compare(want.Render(), got.Render())
	if m == nil || m.Record != "0003" || !strings.Contains(m.String(), "+ final t=5000") {
		t.Fatalf("shorter run: %v", m)
	}
	got = sample()
	got.Verdict = nil
	m = Compare(want.Render(), got.Render())
	if m == nil || m.Section != "verdict" || !strings.Contains(m.String(), "the run ends here; the golden has 1 more lines") {
		t.Fatalf("missing verdict: %v", m)
	}
	got = sample()
	got.Final[2] = "  questions active=[c1:open] settled=[]"
	m = Compare(want.Render(), got.Render())
	if m == nil || m.Section != "final" || !strings.Contains(m.String(), "(final)") {
		t.Fatalf("final: %v", m)
	}
}

func TestWriteIsAtomicAndReadable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "x.golden")
	if _, ok, err := Read(p); ok || err != nil {
		t.Fatalf("missing file: %v %v", ok, err)
	}
	if err := Write(p, []byte("one\n")); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two\n")); err != nil {
		t.Fatal(err)
	}
	b, ok, err := Read(p)
	if !ok || err != nil || string(b) != "two\n" {
		t.Fatalf("%q %v %v", b, ok, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}
