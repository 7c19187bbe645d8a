package scenarios

// ExpectInbox is the inbox expectation.
const ExpectInbox = "inbox"

// expectInboxKind declares the inbox expectation (harness/expect_inbox.go checks it).
var expectInboxKind = &expectationKind{
	object: &object{Name: ExpectInbox, Doc: "The Session's inbox, in its canonical text.", Keys: []key{
		{ExpectInbox, "text", true, "e.g. next-step=[] next-turn=[]"},
		{"session", "ident", false, "The Session (default: the first)."},
	}},
	validate: subjectText,
}
