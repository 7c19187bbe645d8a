package scenarios

// ExpectReply is the reply expectation.
const ExpectReply = "reply"

// expectReplyKind declares the reply expectation (harness/expect_reply.go checks it).
var expectReplyKind = &expectationKind{
	object: &object{Name: ExpectReply, Doc: "RPC replies the host sent a client.", Keys: []key{
		{ExpectReply, "ident", true, "The client."},
		{"error", "text", false, "A reply failed with this code."},
		{"value", "raw", false, "A reply carried exactly this value."},
		{"count", "uint", false, "How many replies match (default: at least one)."},
	}},
	validate: subjectClient,
}
