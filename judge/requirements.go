package judge

import "strings"

// judged is, for each kind of observable item, the requirement groups a difference in
// it can break and the ids named when the scenario covers none of those groups. The
// table in docs/PROTOCOL.md ("How a run is judged") is this one in words.
var judged = map[string]struct {
	groups   []string
	fallback []string
}{
	"ready":                   {[]string{"GW"}, []string{"GW-5", "GW-7"}},
	"waterfall":               {[]string{"GW", "ASK", "CLAIM", "CALLER"}, []string{"GW-1", "GW-5", "ASK-8", "CLAIM-1"}},
	"cancel":                  {[]string{"GW"}, []string{"GW-1", "GW-3"}},
	"stream":                  {[]string{"WAIT", "CLAIM", "GW"}, []string{"WAIT-4", "WAIT-5", "WAIT-6", "WAIT-7", "CLAIM-3"}},
	"session-update":          {[]string{"PROJ", "LATE", "AGENT"}, []string{"PROJ-1", "PROJ-12"}},
	"reply":                   {[]string{"LATE", "GW", "CALLER"}, []string{"LATE-1", "LATE-2", "LATE-3", "GW-8"}},
	"request/header":          {[]string{"TOOL"}, []string{"TOOL-1", "TOOL-2"}},
	"tool/call":               {[]string{"TOOL", "AGENT"}, []string{"TOOL-1"}},
	"tool/result":             {[]string{"TOOL", "ASK", "WAIT", "CALLER", "AGENT"}, []string{"TOOL-7", "TOOL-8", "TOOL-9", "ASK-9"}},
	"user/message":            {[]string{"LATE", "AGENT"}, []string{"LATE-4", "AGENT-1"}},
	"tool/ptc-dispatch-start": {[]string{"AGENT", "PROJ"}, []string{"PROJ-7"}},
	"tool/ptc-dispatch":       {[]string{"AGENT", "PROJ"}, []string{"PROJ-7", "AGENT-4"}},
	"direct":                  {[]string{"ASK", "CALLER", "LATE", "TOOL"}, []string{"ASK-1", "ASK-2", "CALLER-1", "LATE-1"}},
	"refused":                 {[]string{"TOOL", "ASK", "LATE", "AGENT", "GW"}, nil},
	"client":                  {[]string{"CLAIM", "GW", "WAIT", "CARD", "CD"}, []string{"GW-1", "CLAIM-2"}},
	"state":                   {[]string{"PROJ", "LATE", "AGENT"}, []string{"PROJ-12", "LATE-7"}},
	"client-state":            {[]string{"CARD", "CD", "DRAFT", "ROW", "NODE", "PROJ", "LATE", "CLAIM"}, []string{"PROJ-10"}},
}

// Requirements are the requirement ids a difference in an item of kind judges, for a
// scenario that covers covers: the covered ids of the kind's groups, or, when the
// scenario covers none of them, the kind's own ids. Nil when the kind names none (a
// refusal in a scenario that covers nothing it can break): the scenario's covers then
// stand for it.
func Requirements(kind string, covers []string) []string {
	k, ok := judged[kind]
	if !ok {
		return nil
	}
	var out []string
	for _, id := range covers {
		for _, g := range k.groups {
			if strings.HasPrefix(id, g+"-") {
				out = append(out, id)
				break
			}
		}
	}
	if len(out) == 0 {
		out = append(out, k.fallback...)
	}
	return out
}
