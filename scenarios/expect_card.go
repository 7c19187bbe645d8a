package scenarios

// ExpectCard is the card expectation.
const ExpectCard = "card"

// expectCardKind declares the card expectation (harness/expect_card.go checks it).
var expectCardKind = &expectationKind{
	object: &object{Name: ExpectCard, Doc: "A client's question card.", Keys: []key{
		{ExpectCard, "ident", true, "The call id, or #N."},
		{"client", "ident", false, "The client (default: the only one)."},
		{"session", "ident", false, "The Session (default: the first)."},
		{"state", "#card-state", false, "open or continued."},
		{"wait", "#wait-state", false, "counting, focused, editing, waiting or continued."},
		{"countdown", "#countdown", false, "e.g. 3s running, 2.5s paused, or none."},
		{"channel", "#channel", false, "waterfall, rpc or none."},
		{"shown", "bool", false, "Published in the composer seat."},
		{"closed", "bool", false, "Closed."},
		{"busy", "bool", false, "Busy (a submission in flight)."},
		{"hint", "text", false, "The hint or error shown, exactly."},
		{"seat", "bool", false, "It is the card the composer renders."},
		{"focus", "bool", false, "The page's focus is in its answer surface (by the user, or autofocus)."},
		{"kind", "#card-kind", false, "question, plan-review or review."},
		{"composer", "text", false, "The composer's draft, exactly, e.g. {pkg=[bun]} or {pkg=-} (- not answered yet)."},
		{"questions", "#questions", false, "The card's questions, exactly, in order (id, question, header, detail, options, multi), written as a model's ask writes them."},
		{"none", "true", false, "There is no such card."},
	}},
	perClient: true,
	validate:  subjectCard,
}
