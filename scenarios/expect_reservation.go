package scenarios

// ExpectReservation is the reservation expectation.
const ExpectReservation = "reservation"

// expectReservationKind declares the reservation expectation (harness/expect_reservation.go checks it).
var expectReservationKind = &expectationKind{
	object: &object{Name: ExpectReservation, Doc: "The per-Session reply reservation for a call.", Keys: []key{
		{ExpectReservation, "ident", true, "The call id."},
		{"session", "ident", false, "The Session (default: the first)."},
		{"claimed", "bool", false, "Its reply has been claimed by a turn."},
		{"none", "true", false, "There is no reservation."},
	}},
	validate: subjectCall,
}
