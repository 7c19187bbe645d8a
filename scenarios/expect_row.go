package scenarios

// ExpectRow is the row expectation.
const ExpectRow = "row"

// expectRowKind declares the row expectation (harness/expect_row.go checks it).
var expectRowKind = &expectationKind{
	object: &object{Name: ExpectRow, Doc: "A client's ask_user_question tool row.", Keys: []key{
		{ExpectRow, "ident", true, "The call id."},
		{"client", "ident", false, "The client (default: the only one)."},
		{"session", "ident", false, "The Session (default: the first)."},
		{"summary", "text", false, "The summary, exactly."},
		{"state", "#row-state", false, "ok, stopped, error or running."},
		{"action", "text", false, "The action (Answer, View answers), or none."},
		{"lines", "#texts", false, "The transcript lines, exactly."},
		{"contains", "text", false, "A transcript line contains this."},
		{"expanded", "bool", false, "The row's disclosure is open."},
		{"none", "true", false, "There is no such row."},
	}},
	perClient: true,
	validate:  subjectCall,
}
