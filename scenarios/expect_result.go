package scenarios

// ExpectResult is the result expectation.
const ExpectResult = "result"

// expectResultKind declares the result expectation (harness/expect_result.go checks it).
var expectResultKind = &expectationKind{
	object: &object{Name: ExpectResult, Doc: "The result of a service call.", Keys: []key{
		{ExpectResult, "ident", true, "The service call's id."},
		{"pending", "true", false, "The value is {pending: true, callId}."},
		{"answers", "#answers", false, "The value is this answer batch."},
		{"error", "text", false, "It failed with this code (any: any error)."},
		{"value", "raw", false, "The value is exactly this JSON."},
		{"contains", "text", false, "The value or error message contains this."},
		{"none", "true", false, "There is no result (yet)."},
		{"time", "duration", false, "The result came at this time."},
	}},
	oneOutcome: true,
	validate:   validateResultSubject,
}

// validateResultSubject: the subject is a service call's result id.
func validateResultSubject(v *validator, e *Expectation) {
	if !v.results[e.Subject] {
		v.fail(e.Pos, "name a service call's id (default d1, d2, ... in step order)", "unknown service result %q", e.Subject)
	}
}
