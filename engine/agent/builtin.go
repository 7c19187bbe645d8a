package agent

import (
	"encoding/json"
	"strconv"
)

// Built-in tool names.
const (
	// ToolRunCode is the PTC tool: args {"calls":[{"name":…,"arguments":{…}},…]}.
	ToolRunCode = "run_code"
	// ToolSleep takes virtual time: args {"ms":N}, result "slept N ms" N ms later.
	ToolSleep = "sleep"
)

// InstantText is the result text of a tool no runner took and no built-in knows: it
// completes at once, successfully.
const InstantText = "ok"

// MaxSleepMs bounds a sleep (the largest positive 32-bit millisecond delay).
const MaxSleepMs = 2147483647

// builtin runs a call no runner took: sleep, or an instant ok.
func builtin(c *Call) {
	if c.name != ToolSleep {
		c.settle(OK(InstantText))
		return
	}
	ms, ok := sleepMs(c.args)
	if !ok {
		c.settle(Failed(TypeErrorName, "", `sleep: arguments must be {"ms":N} with N an integer from 0 to 2147483647`))
		return
	}
	if c.sig.IsAborted() {
		c.settle(Failed(AbortErrorName, "", "sleep aborted: "+reasonText(c.sig.Reason())))
		return
	}
	if ms == 0 {
		c.settle(OK("slept 0 ms"))
		return
	}
	c.sleepMs = ms
	c.sleep = c.s.rt.arm(c.s.rt.now+ms, nil, c)
	c.onAbort = c.sig.Listen((*sleepAbort)(c))
}

// sleepAbort is a sleeping call's listener on its signal: the abort ends the sleep.
type sleepAbort Call

func (c *sleepAbort) SignalAborted(reason error) {
	(*Call)(c).settle(Failed(AbortErrorName, "", "sleep aborted: "+reasonText(reason)))
}

// wake is a sleep's timer firing.
func (c *Call) wake() {
	c.sleep = 0
	if !c.done && c.epoch == c.s.rt.epoch {
		c.settle(OK("slept " + strconv.FormatInt(c.sleepMs, 10) + " ms"))
	}
}

func sleepMs(args string) (int64, bool) {
	if n, ok := sleepMsFast(args); ok {
		return n, n <= MaxSleepMs
	}
	var a struct {
		Ms json.RawMessage `json:"ms"`
	}
	if err := json.Unmarshal([]byte(args), &a); err != nil || len(a.Ms) == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(string(a.Ms), 10, 64) // a JSON integer literal only
	if err != nil || n < 0 || n > MaxSleepMs {
		return 0, false
	}
	return n, true
}

// sleepMsFast reads the exact form {"ms":N} (N plain decimal digits, no leading zero,
// no whitespace) without reflection; anything else is left to encoding/json.
func sleepMsFast(args string) (int64, bool) {
	const pre = `{"ms":`
	if len(args) < len(pre)+2 || args[:len(pre)] != pre || args[len(args)-1] != '}' {
		return 0, false
	}
	digits := args[len(pre) : len(args)-1]
	if len(digits) > 10 || (len(digits) > 1 && digits[0] == '0') {
		return 0, false
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

func reasonText(r error) string {
	if r == nil {
		return "aborted"
	}
	return r.Error()
}
