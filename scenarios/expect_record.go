package scenarios

// ExpectRecord is the record expectation.
const ExpectRecord = "record"

// expectRecordKind declares the record expectation (harness/expect_record.go checks it).
var expectRecordKind = &expectationKind{
	object: &object{Name: ExpectRecord, Doc: "Trace records whose canonical line contains this.", Keys: []key{
		{ExpectRecord, "text", true, "A part of the record's line, e.g. wait s1/c1 expired"},
		{"count", "uint", false, "How many records match (default: at least one; 0: none)."},
		{"time", "duration", false, "The matching records are at this time."},
	}},
	validate: subjectText,
}
