package timeline_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"
)

// cdp drives a headless Chromium over the DevTools protocol on a pipe
// (--remote-debugging-pipe: the browser reads commands on fd 3 and writes replies and
// events on fd 4, each a JSON object ended by a NUL), with the standard library only.
// Every command goes to the one page target it attached to.
type cdp struct {
	cmd     *exec.Cmd
	w       *os.File
	r       *bufio.Reader
	id      int
	session string
	cancel  context.CancelFunc
}

func startCDP(t *testing.T, bin, url string) *cdp {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	toBrowser, ourEnd, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromBrowser, browserEnd, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe",
		"--user-data-dir="+profileDir(t), "--window-size=1400,1000", url)
	cmd.ExtraFiles = []*os.File{toBrowser, browserEnd} // fd 3, fd 4
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	toBrowser.Close()
	browserEnd.Close()
	c := &cdp{cmd: cmd, w: ourEnd, r: bufio.NewReader(fromBrowser), cancel: cancel}
	t.Cleanup(func() {
		ourEnd.Close()
		cancel()
		cmd.Wait()
	})
	var targets struct {
		TargetInfos []struct{ TargetID, Type, URL string } `json:"targetInfos"`
	}
	for i := 0; ; i++ {
		c.call(t, "Target.getTargets", nil, &targets)
		var page string
		for _, ti := range targets.TargetInfos {
			if ti.Type == "page" {
				page = ti.TargetID
			}
		}
		if page != "" {
			var att struct{ SessionID string }
			c.call(t, "Target.attachToTarget", map[string]any{"targetId": page, "flatten": true}, &att)
			c.session = att.SessionID
			break
		}
		if i > 100 {
			t.Fatal("no page target")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// wait until the page's script has run
	for i := 0; c.eval(t, `document.body && document.body.getAttribute("data-ready")`) != "1"; i++ {
		if i > 200 {
			t.Fatal("the page's script never ran (body data-ready)")
		}
		time.Sleep(50 * time.Millisecond)
	}
	return c
}

// call sends one command and decodes its result into out (nil: ignored), skipping events.
func (c *cdp) call(t *testing.T, method string, params any, out any) {
	t.Helper()
	c.id++
	msg := map[string]any{"id": c.id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if c.session != "" {
		msg["sessionId"] = c.session
	}
	b, _ := json.Marshal(msg)
	if _, err := c.w.Write(append(b, 0)); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	for {
		line, err := c.r.ReadBytes(0)
		if err != nil {
			t.Fatalf("%s: the browser closed the pipe: %v", method, err)
		}
		var reply struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct{ Message string }
		}
		if err := json.Unmarshal(line[:len(line)-1], &reply); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if reply.ID != c.id {
			continue // an event, or another session's reply
		}
		if reply.Error != nil {
			t.Fatalf("%s: %s", method, reply.Error.Message)
		}
		if out != nil {
			if err := json.Unmarshal(reply.Result, out); err != nil {
				t.Fatalf("%s: %v", method, err)
			}
		}
		return
	}
}

// eval evaluates a JavaScript expression in the page and returns its value as text
// ("" for null or undefined); an exception fails the test.
func (c *cdp) eval(t *testing.T, expr string) string {
	t.Helper()
	var res struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct{ Text string } `json:"exceptionDetails"`
	}
	c.call(t, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res)
	if res.ExceptionDetails != nil {
		t.Fatalf("%s: %s", expr, res.ExceptionDetails.Text)
	}
	if res.Result.Value == nil {
		return ""
	}
	return fmt.Sprint(res.Result.Value)
}

func (c *cdp) key(t *testing.T, key string) {
	t.Helper()
	c.call(t, "Input.dispatchKeyEvent", map[string]any{"type": "keyDown", "key": key}, nil)
	c.call(t, "Input.dispatchKeyEvent", map[string]any{"type": "keyUp", "key": key}, nil)
}

// mouse sends one mouse event at (x, y) (CSS pixels of the viewport).
func (c *cdp) mouse(t *testing.T, typ string, x, y float64, extra map[string]any) {
	t.Helper()
	p := map[string]any{"type": typ, "x": x, "y": y}
	for k, v := range extra {
		p[k] = v
	}
	c.call(t, "Input.dispatchMouseEvent", p, nil)
}

// point is the centre of the first element matching a CSS selector, scrolled into view.
func (c *cdp) point(t *testing.T, selector string) (x, y float64) {
	t.Helper()
	s := c.eval(t, `(function(){var e=document.querySelector(`+jsString(selector)+`); if(!e) return "";
		e.scrollIntoView({block:"center"}); var r=e.getBoundingClientRect(); return (r.left+r.width/2)+" "+(r.top+r.height/2);})()`)
	if _, err := fmt.Sscan(s, &x, &y); err != nil {
		t.Fatalf("no element %s on the page (%q)", selector, s)
	}
	return x, y
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }
