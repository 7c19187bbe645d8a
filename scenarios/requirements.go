package scenarios

import (
	"bufio"
	"bytes"
	"fmt"
	"go/format"
	"regexp"
	"strconv"
	"strings"
)

// Requirement is one numbered rule of docs/REQUIREMENTS.md.
type Requirement struct {
	ID    string
	Group string // the section's prefix, e.g. "WAIT"
	Side  string // H host, C client, R runtime (the section's side)
	Text  string
}

// Limitation reports whether the requirement is an accepted limitation (expected
// behaviour that a scenario shows, not a rule a host must avoid breaking).
func (r Requirement) Limitation() bool { return strings.HasPrefix(r.Text, "Accepted limitation") }

// Requirements returns every requirement id of docs/REQUIREMENTS.md, in the file's order.
// The list is generated (requirements_gen.go) and a test checks it against the file.
func Requirements() []Requirement { return append([]Requirement(nil), requirements...) }

// RequirementIDs returns every id, in the file's order.
func RequirementIDs() []string {
	ids := make([]string, len(requirements))
	for i, r := range requirements {
		ids[i] = r.ID
	}
	return ids
}

var requirementSet = func() map[string]bool {
	m := make(map[string]bool, len(requirements))
	for _, r := range requirements {
		m[r.ID] = true
	}
	return m
}()

// KnownRequirement reports whether id is a requirement id.
func KnownRequirement(id string) bool { return requirementSet[id] }

var (
	reqSection = regexp.MustCompile(`^## ([A-Z]+): .*\(([HCR])(?:, with [HCR])?\)\s*$`)
	reqLine    = regexp.MustCompile(`^- ([A-Z]+-[0-9]+) (.*)$`)
)

// ParseRequirements reads the requirement ids of a docs/REQUIREMENTS.md text: every list item
// "- ID text" under a "## GROUP: ... (SIDE)" heading.
func ParseRequirements(md []byte) ([]Requirement, error) {
	var out []Requirement
	group, side := "", ""
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if m := reqSection.FindStringSubmatch(line); m != nil {
			group, side = m[1], m[2]
			continue
		}
		m := reqLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		id := m[1]
		if group == "" || !strings.HasPrefix(id, group+"-") {
			return nil, fmt.Errorf("line %d: requirement %s is not under its ## %s section", n, id, strings.SplitN(id, "-", 2)[0])
		}
		if seen[id] {
			return nil, fmt.Errorf("line %d: requirement %s is listed twice", n, id)
		}
		seen[id] = true
		out = append(out, Requirement{ID: id, Group: group, Side: side, Text: m[2]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no requirement ids found")
	}
	return out, sc.Err()
}

// RequirementsSource renders the Go source of requirements_gen.go for reqs.
func RequirementsSource(reqs []Requirement) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated from docs/REQUIREMENTS.md by TestRequirementsMatchFile (-update-requirements). DO NOT EDIT.\n\n")
	b.WriteString("package scenarios\n\nvar requirements = []Requirement{\n")
	for _, r := range reqs {
		fmt.Fprintf(&b, "\t{ID: %s, Group: %s, Side: %s, Text: %s},\n",
			strconv.Quote(r.ID), strconv.Quote(r.Group), strconv.Quote(r.Side), strconv.Quote(r.Text))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
