package scenarios

// ExpectAgent is the agent expectation.
const ExpectAgent = "agent"

// expectAgentKind declares the agent expectation (harness/expect_agent.go checks it).
var expectAgentKind = &expectationKind{
	object: &object{Name: ExpectAgent, Doc: "A Session's agent.", Keys: []key{
		{ExpectAgent, "ident", true, "The Session."},
		{"live", "bool", false, "A live agent instance exists."},
		{"root", "bool", false, "The live agent is a runtime root."},
		{"phase", "#phase", false, "idle or running."},
	}},
	validate: validateAgentSubject,
}

// validateAgentSubject: the subject is a Session.
func validateAgentSubject(v *validator, e *Expectation) { v.session(e.Pos, e.Subject) }
