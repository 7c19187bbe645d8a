package timeline_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twosettle/twosettle/harness"
	"github.com/twosettle/twosettle/timeline"
)

// The browser checks open real pages in headless Chromium (Debian's chromium, driven by
// its own command line: --dump-dom for the DOM after the page's script ran,
// --enable-logging=stderr --v=0 for the console, --screenshot for a PNG). They skip when
// no chromium is on PATH and with -short, unless TWOSETTLE_REQUIRE_BROWSER=1 (.ci/run
// sets it), which makes a missing browser a failure. The pages and screenshots are kept in
// $TWOSETTLE_ARTIFACTS (a new temporary directory when unset) and their paths logged.

// chromium is the browser's path, or the test is skipped (failed under
// TWOSETTLE_REQUIRE_BROWSER=1).
func chromium(t *testing.T) string {
	t.Helper()
	required := os.Getenv("TWOSETTLE_REQUIRE_BROWSER") == "1"
	if testing.Short() && !required {
		// .ci/run's race stage runs -short: the browser stage runs these once, required
		t.Skip("-short: the headless-browser checks of the timeline are skipped")
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if required {
		t.Fatal("TWOSETTLE_REQUIRE_BROWSER=1 but no chromium on PATH (apt-get install chromium)")
	}
	t.Skip("no chromium on PATH: the headless-browser checks of the timeline are skipped (.ci/run installs it; locally: apt-get install chromium)")
	return ""
}

func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TWOSETTLE_ARTIFACTS")
	if dir == "" {
		d, err := os.MkdirTemp("", "twosettle-timeline-")
		if err != nil {
			t.Fatal(err)
		}
		dir = d
	}
	dir = filepath.Join(dir, "timeline")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browse loads url headless (one browser run: the DOM dump and, with --screenshot=, the
// PNG) and returns the DOM after the page's script ran and every console message the
// page produced (the page itself never logs, so any message is a failure).
func browse(t *testing.T, bin, url string, extra ...string) (dom string, console []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
		"--user-data-dir=" + profileDir(t), "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000"}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", extra, err, tail(errb.String()))
	}
	for _, l := range strings.Split(errb.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	return out.String(), console
}

// profileDir is a browser's --user-data-dir. Chromium's helper processes may still write
// into it for a moment after the browser has exited or been killed, so it is removed with
// retries, and a directory left behind is logged, not a failure of the test (t.TempDir's
// cleanup made it one: "unlinkat …/Default: directory not empty").
func profileDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "twosettle-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 50 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("left %s behind: the browser's helpers still write to it", dir)
	})
	return dir
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// browserPage is one page to open and what must be in it once rendered.
type browserPage struct {
	name  string
	html  []byte
	query string   // ?zoom=…&select=… (the page opens zoomed with a panel)
	width int      // the window's width (default 1500)
	want  []string // element markers: name=substring of the rendered DOM (name=re:REGEXP)
}

func libraryEntry(t *testing.T, name string) harness.Entry {
	t.Helper()
	for _, e := range harness.Library("") {
		if strings.TrimSuffix(filepath.Base(e.Path), ".yaml") == name {
			return e
		}
	}
	t.Fatalf("no library scenario %s", name)
	return harness.Entry{}
}

var translate = regexp.MustCompile(`data-x="([0-9.]+)" data-y="[0-9.]+" transform="translate\(([0-9.-]+),`)

func TestTimelineInHeadlessChromium(t *testing.T) {
	bin := chromium(t)
	dir := artifacts(t)
	// a library scenario: countdowns (running, frozen by an edit, expired locally),
	// claims, a reload
	_, libPage := page(t, libraryEntry(t, "cd-edit-freezes-and-survives-reload"), "")
	// skewed clocks: each client's clock readings under the axis's ticks
	_, skewPage := page(t, libraryEntry(t, "cd-client-clock-skew-does-not-matter"), "")
	// a failing run: the same kind of scenario under a mutant (Take time ignored)
	held := libraryEntry(t, "cd-take-time-survives-reload")
	failing, _ := page(t, held, "take-time-ignored")
	if len(failing.Failures) == 0 {
		t.Fatal("cd-take-time-survives-reload does not fail under take-time-ignored")
	}
	// two runs: the correct engine against the mutant
	ok, _ := page(t, held, "")
	in := func(r *harness.Result, m string) timeline.Input {
		x := timeline.Input{Scenario: r.Scenario.Name, Summary: r.Scenario.Summary, Seed: r.Seed, Mutant: m, Trace: r.Trace}
		if r.Verdict != nil {
			x.Verdict = r.Verdict.Text
		}
		return x
	}
	failIn := in(failing, "take-time-ignored")
	for _, f := range failing.Failures {
		failIn.Notes = append(failIn.Notes, "FAILED "+f.String())
	}
	failPage := timeline.Render(failIn)
	againstPage, differ := timeline.RenderAgainst(in(ok, ""), in(failing, "take-time-ignored"))
	if !differ {
		t.Fatal("the correct engine and the mutant run the same")
	}
	common := []string{
		`lanes=class="lane" data-actor="host"`, `client lane=class="lane" data-actor="a"`,
		`call bars=class="ph open"`, `deadlines=class="dl"`, `verdict=class="verdict `,
		`arrows=class="msg `, `delivery arrows=class="msg delivery`, `countdowns=class="cd `,
		`clock skew=class="skew"`, `script ran=data-ready="1"`,
	}
	pages := []browserPage{
		{name: "library-cd-edit-freezes-and-survives-reload", html: libPage,
			want: append([]string{`verdict ok=class="verdict ok"`, `frozen countdown=class="cd frozen"`, `local expiry=class="exp cdx"`}, common...)},
		{name: "failing-cd-take-time-survives-reload-take-time-ignored", html: failPage,
			want: append([]string{`failed expectation=class="notes"`}, common...)},
		{name: "against-cd-take-time-survives-reload", html: againstPage,
			want: append([]string{`divergence box=class="divergence"`, `divergence marker=class="divrule"`, `divergence ring=class="divring"`}, common...)},
		{name: "library-cd-client-clock-skew-does-not-matter", html: skewPage,
			want: []string{`clock reading shown=re:class="lck"[^>]*style="display: inline;"[^>]*>35s<`, `countdowns=class="cd `, `script ran=data-ready="1"`}},
		{name: "faults-at-the-end", html: faultsAtTheEndPage(t),
			want: []string{`fault label ending at its rule, shown=re:text-anchor="end"( style="")?>disconnect phone-on-the-tra`,
				`the other one too=re:text-anchor="end"( style="")?>disconnect laptop-in-the-ki`, `script ran=data-ready="1"`}},
		{name: "faults-at-the-end-zoomed", html: faultsAtTheEndPage(t), query: "?zoom=3&select=r0028",
			want: []string{`zoomed in, the label has room after its rule again=re:text-anchor="start"( style="")?>disconnect laptop-in-the-ki`, `script ran=data-ready="1"`}},
		{name: "library-cd-edit-freezes-and-survives-reload-panel", html: libPage, query: "?zoom=6&select=r0046",
			want: []string{`panel open=id="panel" class="panel"><button`, `caused=what it caused`, `selected mark=class="mk cur"`, `script ran=data-ready="1"`,
				`finer ticks shown=re:class="tk fine"[^>]*style="display: inline;"`,
				`a busy instant's bracket on the sequence sub-axis=re:<g class="subax" style="display: inline;"><line class="subb"[^>]*>(</line>)?<text class="subl"[^>]*><title>[^<]*</title>[0-9.]+m?s · [0-9]+ records<`}},
		{name: "failing-cd-take-time-survives-reload-take-time-ignored-narrow", html: failPage, width: 700,
			want: []string{`fitted to the window=zoom 0.`, `script ran=data-ready="1"`}},
	}
	for _, pg := range pages {
		t.Run(pg.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(pg.name, "-panel"), "-narrow"), "-zoomed")+".html")
			if err := os.WriteFile(file, pg.html, 0o644); err != nil {
				t.Fatal(err)
			}
			url := "file://" + file + pg.query
			png := filepath.Join(dir, pg.name+".png")
			width := pg.width
			if width == 0 {
				width = 1500
			}
			dom, console := browse(t, bin, url, "--dump-dom", "--screenshot="+png, "--window-size="+strconv.Itoa(width)+",1300")
			if len(console) > 0 {
				t.Errorf("the page wrote to the console:\n%s", strings.Join(console, "\n"))
			}
			if e := regexp.MustCompile(` data-js-error="[^"]*"`).FindString(dom); e != "" {
				t.Errorf("the page's script failed:%s", e)
			}
			for _, w := range pg.want {
				name, marker, _ := strings.Cut(w, "=")
				if re, ok := strings.CutPrefix(marker, "re:"); ok && !regexp.MustCompile(re).MatchString(dom) ||
					!ok && !strings.Contains(dom, marker) {
					t.Errorf("missing %s (%s) in the rendered page", name, marker)
				}
			}
			if pg.query != "" {
				moved := false
				for _, m := range translate.FindAllStringSubmatch(dom, -1) {
					if m[1] != m[2] {
						moved = true
						break
					}
				}
				if !moved {
					t.Error("?zoom=6 moved no mark: the zoom did not run")
				}
			}
			data, err := os.ReadFile(png)
			if err != nil || !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) || len(data) < 10_000 {
				t.Fatalf("no screenshot at %s (%v, %d bytes)", png, err, len(data))
			}
			t.Logf("page %s\nscreenshot %s", file, png)
		})
	}
}

// The page's keyboard and mouse, driven in headless Chromium over the DevTools protocol:
// + zooms, an arrow key pans, 0 shows the whole run again, ctrl + wheel zooms at the
// pointer, a drag and shift + wheel pan, - zooms out, a click on a mark opens the panel
// with its record and what it caused, Escape closes it, and a legend entry hides and
// shows its kind of arrow.
func TestTimelineKeyboardAndMouseInHeadlessChromium(t *testing.T) {
	bin := chromium(t)
	dir := artifacts(t)
	_, pg := page(t, libraryEntry(t, "cd-edit-freezes-and-survives-reload"), "")
	file := filepath.Join(dir, "interaction-cd-edit-freezes-and-survives-reload.html")
	if err := os.WriteFile(file, pg, 0o644); err != nil {
		t.Fatal(err)
	}
	c := startCDP(t, bin, "file://"+file)
	zoom := func() string { return c.eval(t, `document.getElementById("zoomlevel").textContent`) }
	at := func() string {
		return c.eval(t, `document.querySelector("[data-r='r0068'].mk").getAttribute("transform")`)
	}
	z0, x0 := zoom(), at()
	if z0 != "zoom 1.0x" {
		t.Fatalf("the page opens at %q", z0)
	}
	c.key(t, "+")
	if zoom() != "zoom 1.5x" || at() == x0 {
		t.Fatalf("+: %q, mark at %s (was %s)", zoom(), at(), x0)
	}
	x1 := at()
	c.key(t, "ArrowRight")
	if zoom() != "zoom 1.5x" || at() == x1 {
		t.Fatalf("→: %q, mark at %s (was %s)", zoom(), at(), x1)
	}
	c.key(t, "0")
	if zoom() != z0 || at() != x0 {
		t.Fatalf("0: %q, mark at %s, not %s", zoom(), at(), x0)
	}
	x, y := c.point(t, "#chart svg")
	c.mouse(t, "mouseWheel", x, y, map[string]any{"deltaX": 0, "deltaY": -400, "modifiers": 2}) // ctrl
	if zoom() == z0 {
		t.Fatal("ctrl + wheel did not zoom")
	}
	x2 := at()
	c.mouse(t, "mousePressed", x, y, map[string]any{"button": "left", "clickCount": 1})
	c.mouse(t, "mouseMoved", x-80, y, map[string]any{"button": "left"})
	c.mouse(t, "mouseMoved", x-160, y, map[string]any{"button": "left"})
	c.mouse(t, "mouseReleased", x-160, y, map[string]any{"button": "left", "clickCount": 1})
	if at() == x2 {
		t.Fatal("a drag did not pan")
	}
	x3 := at()
	c.mouse(t, "mouseWheel", x, y, map[string]any{"deltaX": 0, "deltaY": 200, "modifiers": 8}) // shift
	if at() == x3 {
		t.Fatal("shift + wheel did not pan")
	}
	z1 := zoom()
	c.key(t, "-")
	if zoom() == z1 {
		t.Fatalf("-: still %q", z1)
	}
	c.key(t, "0")
	mx, my := c.point(t, "[data-r='r0068'].mk")
	c.mouse(t, "mousePressed", mx, my, map[string]any{"button": "left", "clickCount": 1})
	c.mouse(t, "mouseReleased", mx, my, map[string]any{"button": "left", "clickCount": 1})
	if c.eval(t, `String(document.getElementById("panel").hidden)`) != "false" {
		t.Fatal("a click on the mark opened no panel")
	}
	text := c.eval(t, `document.getElementById("panel").textContent`)
	if !strings.Contains(text, "0068 t=5040 b@5040 out result") || !strings.Contains(text, "what it caused") ||
		!strings.Contains(text, "0069 t=5050 host in event-result b.1") || !strings.Contains(text, "what led to it") ||
		!strings.Contains(text, "0046 t=40 b@40 in frame item stream=b-s1") {
		t.Fatalf("panel:\n%s", text)
	}
	c.key(t, "Escape")
	if c.eval(t, `String(document.getElementById("panel").hidden)`) != "true" {
		t.Fatal("Escape did not close the panel")
	}
	// a click on the legend's "frame" hides the frame arrows, a second one shows them
	shown := func() string {
		return c.eval(t, `String(Array.prototype.filter.call(document.querySelectorAll("line.msg.frame"), function (e) { return e.getBoundingClientRect().width + e.getBoundingClientRect().height > 0; }).length)`)
	}
	before := shown()
	lx, ly := c.point(t, `.legend [data-kinds="frame connect"]`)
	for i, want := range []string{"0", before} {
		c.mouse(t, "mousePressed", lx, ly, map[string]any{"button": "left", "clickCount": 1})
		c.mouse(t, "mouseReleased", lx, ly, map[string]any{"button": "left", "clickCount": 1})
		if got := shown(); got != want || before == "0" {
			t.Fatalf("legend click %d: %s frame arrows shown, want %s (of %s)", i+1, got, want, before)
		}
	}
	if e := c.eval(t, `document.body.getAttribute("data-js-error")`); e != "" {
		t.Fatalf("the page's script failed: %s", e)
	}
}
