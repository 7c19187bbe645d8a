package conform

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Profiles (docs/PROTOCOL.md, "Profiles"): each is a documented part of the protocol with
// its own messages and the requirement ids it judges, so a team can conform the part of
// the decision it has (a projection fold, a timed wait) before the whole host. The
// runner names the profile in its hello; the host's hello lists the profiles it serves
// ("profiles", absent meaning ["host"]). A host that does not serve the requested
// profile is refused before any run.
const (
	ProfileHost       = "host"       // the whole host (HostPort), the default: today's conform
	ProfileProjection = "projection" // the userQuestions fold over a Session log (projection*.go)
	ProfileWait       = "wait"       // the timed wait alone (wait*.go, realtime*.go)
)

// profileNames are the profiles this runner can run, in the order a team adopts them
// (projection first, the whole host last). Another profile adds its name here, its ids
// in ProfileRequirements and its case in runProfile.
var profileNames = []string{ProfileProjection, ProfileWait, ProfileHost}

// ProfileNames lists the profiles this runner can run.
func ProfileNames() []string { return slices.Clone(profileNames) }

// ParseProfile checks a --profile value ("" is the default, host).
func ParseProfile(s string) (string, error) {
	if s == "" {
		return ProfileHost, nil
	}
	if slices.Contains(profileNames, s) {
		return s, nil
	}
	return "", fmt.Errorf("unknown profile %q (the profiles are %s)", s, strings.Join(profileNames, ", "))
}

// ProfileRequirements are the requirement ids a profile judges, in catalogue order, with
// a note for those it judges only in part; nil for the host profile, which judges every
// id (Report.Requirements). A profile's report lists exactly these ids.
func ProfileRequirements(profile string) ([]string, map[string]string) {
	switch profile {
	case ProfileProjection:
		return projectionIDs(), projectionNotes
	case ProfileWait:
		return WaitRequirementIDs, nil
	}
	return nil, nil
}

// runProfile runs the conform command for one profile with the rest of its arguments:
// one case per profile.
func runProfile(profile string, args []string, stdout, stderr io.Writer, env []string) int {
	if profile == ProfileProjection && hasFlag(args, "realtime") {
		fmt.Fprintf(stderr, "conform: --realtime is for the host and wait profiles; the %s profile has no time (docs/PROTOCOL.md, \"Real-time mode\")\n", profile)
		return 2
	}
	switch profile {
	case ProfileHost:
		return runMain(args, stdout, stderr, env)
	case ProfileProjection:
		return projectionMain(args, stdout, stderr, env)
	case ProfileWait:
		return runWaitProfile(args, stdout, stderr, env)
	}
	fmt.Fprintf(stderr, "conform: unknown profile %q (the profiles are %s)\n", profile, strings.Join(profileNames, ", "))
	return 2
}

// hasFlag reports whether args (up to a "--") set the flag name, as -name, --name or
// --name=VALUE.
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && n == name {
			return true
		}
	}
	return false
}

// takeProfile removes --profile NAME (or -profile, or =NAME) from args and returns it;
// ok is false when the flag has no value.
func takeProfile(args []string) (profile string, rest []string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "profile" {
			rest = append(rest, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return "", nil, false
			}
			i++
			val = args[i]
		}
		profile = val
	}
	return profile, rest, true
}
