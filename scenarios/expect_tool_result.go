package scenarios

// ExpectToolResult is the tool-result expectation.
const ExpectToolResult = "tool-result"

// expectToolResultKind declares the tool-result expectation (harness/expect_tool_result.go checks it).
var expectToolResultKind = &expectationKind{
	object: &object{Name: ExpectToolResult, Doc: "The tool result of a call (or a run sub-call's dispatch record) in the Session log.", Keys: []key{
		{ExpectToolResult, "ident", true, "The call id."},
		{"session", "ident", false, "The Session (default: the first)."},
		{"pending", "true", false, "The result is the pending result."},
		{"answers", "#answers", false, "The result is this answer batch."},
		{"error", "text", false, "The result is an error with this code (any: any error)."},
		{"text", "text", false, "The result's text is exactly this."},
		{"contains", "text", false, "The result's text contains this."},
		{"none", "true", false, "There is no result."},
		{"time", "duration", false, "The result was recorded at this time."},
	}},
	oneOutcome: true,
	validate:   subjectCall,
}
