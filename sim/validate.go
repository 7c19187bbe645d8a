package sim

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// ConfigError is a configuration the simulator cannot honour. Step is the index of the
// offending step (-1 when the error is not in a step) and Line its source line (0 if none).
type ConfigError struct {
	Step  int
	Line  int
	Field string
	Msg   string
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("sim: ")
	if e.Step >= 0 {
		b.WriteString("step ")
		b.WriteString(strconv.Itoa(e.Step))
		if e.Line > 0 {
			b.WriteString(" (line ")
			b.WriteString(strconv.Itoa(e.Line))
			b.WriteByte(')')
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

var knownPoints = []string{PointNow, PointBeforePTCDispatch, PointAfterPTCDispatch, PointBeforeAnswerAck,
	PointAfterAnswerAck, PointBetweenClaimAdmit, PointInsideWriteWindow, PointAfterEffect}

var knownNet = []string{NetDisconnect, NetReconnect, NetPartition, NetDelay, NetLose}

var knownFaults = []string{FaultCrash, FaultReload, FaultClientCrash, FaultClockJump, FaultClockDrift, FaultCancelTurn, FaultInboxWrite, FaultHostStall}

// knownActs are the user action kinds of the protocol (wire.UserActionKinds).
var knownActs = wire.UserActionKinds()

func oneOf(v string, known []string) bool {
	for _, k := range known {
		if v == k {
			return true
		}
	}
	return false
}

func quoteList(known []string) string {
	q := make([]string, 0, len(known))
	for _, k := range known {
		if k != "" {
			q = append(q, strconv.Quote(k))
		}
	}
	return strings.Join(q, ", ")
}

func validName(n string) bool {
	if n == "" || len(n) > 32 {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	switch n {
	case "host", "net", "model", "sim", "user":
		return false
	}
	return true
}

func checkLatency(l Latency) string {
	if l.Min < 0 || l.Max < 0 {
		return "negative latency [" + l.Min.String() + ", " + l.Max.String() + "]"
	}
	if l.Min > l.Max {
		return "latency min " + l.Min.String() + " exceeds max " + l.Max.String()
	}
	return ""
}

// clientField names clients[i] in an error (built only when there is one).
type clientField int

func (i clientField) sub(s string) string { return "clients[" + strconv.Itoa(int(i)) + "]" + s }

func checkPPM(ppm int64) bool { return ppm > -1_000_000 && ppm < 1_000_000 }

// Validate checks a configuration without running it: every error Run would refuse
// before the run starts, as a *ConfigError.
func Validate(cfg *Config) error {
	if cfg.Limit < 0 {
		return &ConfigError{Step: -1, Field: "limit", Msg: "negative limit " + cfg.Limit.String()}
	}
	if cfg.Healed < 0 {
		return &ConfigError{Step: -1, Field: "healed", Msg: "negative healed time " + cfg.Healed.String()}
	}
	if cfg.MaxRecords < 0 {
		return &ConfigError{Step: -1, Field: "max-records", Msg: "negative record budget"}
	}
	if len(cfg.Clients) > 1000 {
		return &ConfigError{Step: -1, Field: "clients", Msg: "more than 1000 clients"}
	}
	for i, c := range cfg.Clients {
		f := clientField(i)
		if !validName(c.Name) {
			return &ConfigError{Step: -1, Field: f.sub(".name"), Msg: "invalid client name " + strconv.Quote(c.Name) +
				" (1..32 of [A-Za-z0-9_-], not host, net, model, sim or user)"}
		}
		if i > 0 && cfg.Clients[i-1].Name >= c.Name {
			prev := cfg.Clients[i-1].Name
			if prev == c.Name {
				return &ConfigError{Step: -1, Field: f.sub(".name"), Msg: "duplicate client " + strconv.Quote(c.Name)}
			}
			return &ConfigError{Step: -1, Field: f.sub(".name"), Msg: "clients are not sorted by name (" + strconv.Quote(prev) + " before " + strconv.Quote(c.Name) + ")"}
		}
		if e := checkLatency(c.Mux); e != "" {
			return &ConfigError{Step: -1, Field: f.sub(".mux"), Msg: e}
		}
		if e := checkLatency(c.HTTP); e != "" {
			return &ConfigError{Step: -1, Field: f.sub(".http"), Msg: e}
		}
		if !checkPPM(c.Clock.DriftPPM) {
			return &ConfigError{Step: -1, Field: f.sub(".clock.drift"), Msg: "drift " + strconv.FormatInt(c.Clock.DriftPPM, 10) + " ppm outside (-1000000, 1000000)"}
		}
	}
	known := clientSet(cfg.Clients)
	unknownClient := func(si int, st *Step, field, n string) error {
		return unknownClientError(cfg.Clients, si, st, field, n)
	}
	var last wire.Time
	for si := range cfg.Steps {
		st := &cfg.Steps[si]
		bad := func(field, msg string) error { return &ConfigError{Step: si, Line: st.Line, Field: field, Msg: msg} }
		if st.At < 0 {
			return bad("at", "negative time "+st.At.String())
		}
		if st.At < last {
			return bad("at", "steps out of time order ("+st.At.String()+" after "+last.String()+")")
		}
		last = st.At
		n := 0
		if st.Host != nil {
			n++
		}
		if st.User != nil {
			n++
		}
		if st.Input != nil {
			n++
		}
		if st.Net != nil {
			n++
		}
		if st.Fault != nil {
			n++
		}
		if st.Probe != "" {
			n++
		}
		if n != 1 {
			return bad("", "a step needs exactly one of host, user, input, net, fault, probe (has "+strconv.Itoa(n)+")")
		}
		if st.Client != "" && st.User == nil && st.Input == nil {
			return bad("client", "client is only for user and input steps (net and fault name their own client)")
		}
		switch {
		case st.Host != nil:
			if e := checkHostCommand(st.Host, known); e != "" {
				return bad("host", e)
			}
		case st.User != nil:
			if !known.has(st.Client) {
				return unknownClient(si, st, "client", st.Client)
			}
			if !oneOf(st.User.Kind, knownActs) {
				return bad("user.kind", "unknown user action "+strconv.Quote(st.User.Kind)+" (known: "+quoteList(knownActs)+")")
			}
		case st.Input != nil:
			if !known.has(st.Client) {
				return unknownClient(si, st, "client", st.Client)
			}
		case st.Net != nil:
			if !oneOf(st.Net.Kind, knownNet) {
				return bad("net.kind", "unknown network action "+strconv.Quote(st.Net.Kind)+" (known: "+quoteList(knownNet)+")")
			}
			if !known.has(st.Net.Client) {
				return unknownClient(si, st, "net.client", st.Net.Client)
			}
			if st.Net.DurationMs < 0 {
				return bad("net.duration", "negative duration "+st.Net.DurationMs.String())
			}
		case st.Fault != nil:
			if e := checkFault(si, st, known, unknownClient); e != nil {
				return e
			}
		}
	}
	fc := &cfg.Faults
	for _, r := range [...]struct {
		name string
		v    float64
	}{{"crash", fc.CrashPerMin}, {"disconnect", fc.DisconnectPerMin}, {"reload", fc.ReloadPerMin},
		{"clock-jump", fc.ClockJumpPerMin}, {"partition", fc.PartitionPerMin}, {"lose-http", fc.LoseHTTPPerMin},
		{"delay-http", fc.DelayHTTPPerMin}, {"client-crash", fc.ClientCrashPerMin}, {"clock-drift", fc.ClockDriftPerMin},
		{"cancel-turn", fc.CancelTurnPerMin}, {"inbox-write-fail", fc.InboxWriteFailPerMin}} {
		if math.IsNaN(r.v) || math.IsInf(r.v, 0) || r.v < 0 {
			return &ConfigError{Step: -1, Field: "faults." + r.name, Msg: "rate must be a finite number >= 0"}
		}
		if r.v > 60_000 {
			return &ConfigError{Step: -1, Field: "faults." + r.name, Msg: "rate above 60000 per minute"}
		}
	}
	if fc.JumpMaxMs < 0 || fc.DriftMaxPPM < 0 || fc.PartitionMaxMs < 0 || fc.DelayMaxMs < 0 {
		return &ConfigError{Step: -1, Field: "faults", Msg: "negative fault magnitude"}
	}
	if fc.DriftMaxPPM >= 1_000_000 {
		return &ConfigError{Step: -1, Field: "faults.drift-max", Msg: "drift magnitude must be below 1000000 ppm"}
	}
	if fc.Any() {
		if cfg.Healed == 0 && cfg.Limit == 0 {
			return &ConfigError{Step: -1, Field: "healed", Msg: "random faults need a healed time or a limit (they would never stop)"}
		}
		clientFaults := fc.DisconnectPerMin > 0 || fc.ReloadPerMin > 0 || fc.ClockJumpPerMin > 0 || fc.PartitionPerMin > 0 ||
			fc.LoseHTTPPerMin > 0 || fc.DelayHTTPPerMin > 0 || fc.ClientCrashPerMin > 0 || fc.ClockDriftPerMin > 0
		if clientFaults && len(cfg.Clients) == 0 {
			return &ConfigError{Step: -1, Field: "faults", Msg: "client faults are on but the run has no clients"}
		}
	}
	return nil
}

// clientSet answers whether a name is one of the (sorted) clients.
type clientSet []ClientConfig

func (cs clientSet) has(n string) bool {
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Name >= n })
	return i < len(cs) && cs[i].Name == n
}

func unknownClientError(cs []ClientConfig, si int, st *Step, field, n string) error {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return &ConfigError{Step: si, Line: st.Line, Field: field, Msg: "unknown client " + strconv.Quote(n) + " (clients: " + quoteList(names) + ")"}
}

func checkHostCommand(c wire.Command, known clientSet) string {
	client := ""
	switch c := c.(type) {
	case wire.Connect, wire.Disconnect:
		return "connect and disconnect are network actions: use a net step (reconnect, disconnect)"
	case wire.Restart:
		if c.CutAfter >= 0 {
			return "a scripted restart must be between commands (cut-after -1); use a crash fault with a point to cut inside an Apply"
		}
	case wire.EventResult:
		client = c.Client
	case wire.StreamOpen:
		client = c.Client
	case wire.StreamCancel:
		client = c.Client
	case wire.Call:
		client = c.Client
	}
	if client != "" && !known.has(client) {
		return "unknown client " + strconv.Quote(client)
	}
	return ""
}

func checkFault(si int, st *Step, known clientSet, unknownClient func(int, *Step, string, string) error) error {
	f := st.Fault
	bad := func(field, msg string) error { return &ConfigError{Step: si, Line: st.Line, Field: field, Msg: msg} }
	if !oneOf(f.Kind, knownFaults) {
		return bad("fault.kind", "unknown fault "+strconv.Quote(f.Kind)+" (known: "+quoteList(knownFaults)+")")
	}
	if f.Kind != FaultCrash && (f.Point != "" || f.Effect != 0) {
		return bad("fault.point", "only a crash has a point")
	}
	switch f.Kind {
	case FaultCrash:
		if !oneOf(f.Point, knownPoints) {
			return bad("fault.point", "unknown crash point "+strconv.Quote(f.Point)+" (known: "+quoteList(knownPoints)+", or empty for now)")
		}
		if f.Effect < 0 {
			return bad("fault.effect", "negative effect count")
		}
		if f.Effect != 0 && f.Point != PointAfterEffect {
			return bad("fault.effect", "effect is only for point "+PointAfterEffect)
		}
		if f.Client != "" || f.Session != "" {
			return bad("fault", "a host crash names no client or session")
		}
	case FaultCancelTurn, FaultInboxWrite:
		if f.Session == "" {
			return bad("fault.session", f.Kind+" needs a session")
		}
	case FaultHostStall:
		if f.ByMs <= 0 {
			return bad("fault.by", "a host stall lasts a positive time")
		}
		if f.Client != "" || f.Session != "" {
			return bad("fault", "a host stall names no client or session")
		}
	default:
		if !known.has(f.Client) {
			return unknownClient(si, st, "fault.client", f.Client)
		}
		if f.Kind == FaultClockDrift && !checkPPM(f.PPM) {
			return bad("fault.ppm", "drift "+strconv.FormatInt(f.PPM, 10)+" ppm outside (-1000000, 1000000)")
		}
	}
	return nil
}
