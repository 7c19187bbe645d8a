package scenarios

// ExpectNode is the node expectation.
const ExpectNode = "node"

// expectNodeKind declares the node expectation (harness/expect_node.go checks it).
var expectNodeKind = &expectationKind{
	object: &object{Name: ExpectNode, Doc: "A client's late-reply conversation node.", Keys: []key{
		{ExpectNode, "ident", true, "The call id."},
		{"client", "ident", false, "The client (default: the only one)."},
		{"session", "ident", false, "The Session (default: the first)."},
		{"lines", "#texts", false, "Its question: answer lines, exactly."},
		{"raw", "text", false, "Its raw text (an unreadable reply)."},
		{"questions", "#questions", false, "The questions its text records, exactly, in order, as for a card."},
		{"message", "text", false, "The reply's message id."},
		{"time", "duration", false, "When the reply was admitted (its user/message event's time)."},
		{"outcome", "text", false, "The reply's source outcome (answered)."},
		{"count", "uint", false, "How many nodes the call has (default: at least one)."},
		{"none", "true", false, "There is no such node."},
	}},
	perClient: true,
	validate:  subjectCall,
}
