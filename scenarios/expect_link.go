package scenarios

// ExpectLink is the link expectation.
const ExpectLink = "link"

// expectLinkKind declares the link expectation (harness/expect_link.go checks it).
var expectLinkKind = &expectationKind{
	object: &object{Name: ExpectLink, Doc: "A client's connection.", Keys: []key{
		{ExpectLink, "ident", true, "The client."},
		{"connected", "bool", false, "It is connected."},
		{"gen", "uint", false, "Its connection generation (0: never connected)."},
	}},
	validate: subjectClient,
}
