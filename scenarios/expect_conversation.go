package scenarios

// ExpectConversation is the conversation expectation.
const ExpectConversation = "conversation"

// expectConversationKind declares the conversation expectation (harness/expect_conversation.go checks it).
var expectConversationKind = &expectationKind{
	object: &object{Name: ExpectConversation, Doc: "A client's conversation layout of a Session (turn folding, process groups, reply nodes).", Keys: []key{
		{ExpectConversation, "ident", true, "The client."},
		{"session", "ident", false, "The Session (default: the first)."},
		{"lines", "#texts", false, "Its entries, exactly (conv s1 #4 d2 tool c1 turn=1 ...)."},
		{"contains", "text", false, "An entry contains this."},
	}},
	validate: subjectClient,
}
