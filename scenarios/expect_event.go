package scenarios

// ExpectEvent is the event expectation.
const ExpectEvent = "event"

// expectEventKind declares the event expectation (harness/expect_event.go checks it).
var expectEventKind = &expectationKind{
	object: &object{Name: ExpectEvent, Doc: "Session log events whose text starts with this.", Keys: []key{
		{ExpectEvent, "text", true, "The start of the event's text, e.g. user/message"},
		{"session", "ident", false, "The Session (default: the first)."},
		{"count", "uint", false, "How many events match (default: at least one; 0: none)."},
		{"time", "duration", false, "The matching events were recorded at this time."},
	}},
	validate: subjectText,
}
