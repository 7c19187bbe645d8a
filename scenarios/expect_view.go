package scenarios

// ExpectView is the view expectation.
const ExpectView = "view"

// expectViewKind declares the view expectation (harness/expect_view.go checks it).
var expectViewKind = &expectationKind{
	object: &object{Name: ExpectView, Doc: "The userQuestions projection, in its canonical text.", Keys: []key{
		{ExpectView, "text", true, "e.g. active=[c1:continued] settled=[]"},
		{"session", "ident", false, "The Session (default: the first)."},
		{"call", "ident", false, "An active call of the view whose questions are checked (with questions:)."},
		{"questions", "#questions", false, "The questions that call's active entry holds, exactly, in order (id, question, header, options, multi)."},
	}},
	validate: validateView,
}

// validateView: the view's text, and call: and questions: together.
func validateView(v *validator, e *Expectation) {
	subjectText(v, e)
	if (e.ViewCall == "") != (e.ViewQuestions == nil) {
		v.fail(e.Pos, "write call: and questions: together", "a view's questions belong to one call")
	}
}
