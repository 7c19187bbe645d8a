package scenarios

// ExpectHostWait is the host-wait expectation.
const ExpectHostWait = "host-wait"

// expectHostWaitKind declares the host-wait expectation (harness/expect_host_wait.go checks it).
var expectHostWaitKind = &expectationKind{
	object: &object{Name: ExpectHostWait, Doc: "The host's foreground wait for a call.", Keys: []key{
		{ExpectHostWait, "ident", true, "The call id."},
		{"session", "ident", false, "The Session (default: the first)."},
		{"claims", "uint", false, "How many claims it holds."},
		{"deadline", "duration", false, "Its deadline (host time)."},
		{"timer", "#timer", false, "When its timer is armed for, or none."},
		{"none", "true", false, "There is no such wait."},
	}},
	validate: subjectCall,
}
