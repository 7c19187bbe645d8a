package scenarios

import "go.yaml.in/yaml/v3"

// ExpectOracle is the oracle expectation.
const ExpectOracle = "oracle"

// expectOracleKind declares the oracle expectation (harness/expect_oracle.go checks it).
var expectOracleKind = &expectationKind{
	object: &object{Name: ExpectOracle, Doc: "The oracle's verdict on the whole run (at end). A violation fails a run unless a scenario expects it.", Keys: []key{
		{ExpectOracle, "#verdict", true, "ok, violation or unknown."},
		{"contains", "text", false, "The verdict's text contains this (an invariant's name)."},
	}},
	subject:  func(d *dec, n *yaml.Node) (string, bool) { return d.enum(n, "verdict", verdicts) },
	validate: atEnd,
}

// verdicts are the oracle's verdicts.
var verdicts = []string{"ok", "violation", "unknown"}
