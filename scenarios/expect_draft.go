package scenarios

// ExpectDraft is the draft expectation.
const ExpectDraft = "draft"

// expectDraftKind declares the draft expectation (harness/expect_draft.go checks it).
var expectDraftKind = &expectationKind{
	object: &object{Name: ExpectDraft, Doc: "A client's stored draft for a card.", Keys: []key{
		{ExpectDraft, "ident", true, "The call id, or #N."},
		{"client", "ident", false, "The client (default: the only one)."},
		{"session", "ident", false, "The Session (default: the first)."},
		{"contains", "text", false, "The stored JSON contains this."},
		{"none", "true", false, "There is no stored draft."},
	}},
	perClient: true,
	validate:  subjectCard,
}
