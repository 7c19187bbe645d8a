// Package scenarios owns the YAML scenario format (FORMAT.md beside this file) and the
// scenario library (library/*.yaml, embedded: Library).
//
//	s, err := scenarios.Decode("x.yaml", data) // strict: every problem at file:line:col with a hint
//	err = scenarios.Validate(s)                 // the same semantic checks, for generated values
//	data = scenarios.Encode(s)                  // the canonical YAML; Decode(Encode(s)) == s
//	schema := scenarios.Schema()                // schema.json, generated from the key tables
//
// Contract:
//   - The vocabulary is data: each object's keys with their types and a line of
//     documentation. The decoder checks keys against those tables and schema.json is
//     generated from them; tests check the file is current, that random valid scenarios
//     validate under the schema, and that shape errors the decoder reports the schema
//     reports too.
//   - One file per kind. Each step kind (an actor: step_model.go, step_host.go,
//     step_service.go, step_net.go, step_user.go, step_inject.go) and each expectation
//     kind (expect_<kind>.go, dashes as underscores: expect_card.go, expect_tool_result.go,
//     ...) is declared once, in its file: its keys (the table entry), its decoding, its
//     validation and its encoding. kinds.go lists the kinds in the format's order (of
//     hints, schema.json and FORMAT.md) and the generic loops of decode.go, validate.go,
//     encode.go and schema.go dispatch through those lists; the assertion keys the
//     expectation kinds share (pending, count, state, ...) are one table, assertions.go.
//     What is not a kind is shared: the scenario, clients and Sessions, the step itself,
//     questions and answers (scenario.go, spec.go), the scalar readers (decode.go).
//   - Adding a kind: its file here (a stepKind or an expectationKind), one line in the
//     list in kinds.go (and, for a step kind, its field in Step), its compile or check in
//     package harness in the file of the same name (harness/step_<kind>.go,
//     harness/expect_<kind>.go, registered by name), its test and its FORMAT.md entry;
//     then regenerate schema.json (go test ./scenarios -run TestSchemaFile -update-schema).
//     TestKindFiles, TestKindsAreInFormat, TestGeneratorDrawsEveryKind (the random
//     scenarios of the round-trip property, gen_test.go) and harness's
//     TestEveryKindHasItsHarnessFile fail on a kind that is half added.
//   - Decoding is strict and never panics (a go test -fuzz target): unknown keys, wrong
//     types, anchors, aliases, tags, duplicate keys, several documents, unknown actors,
//     clients, Sessions, calls, cards, result ids and requirement ids, steps out of time
//     order are errors. Requirement ids come from requirements_gen.go, generated from
//     docs/REQUIREMENTS.md (TestRequirementsMatchFile, a mandatory test, checks it against
//     the file).
//   - Scenario values are plain data with zero values meaning "the default", so a
//     generator or a shrinker builds them and writes them with Encode.
//   - What a scenario means at run time (the mapping to sim.Config, the reference host and
//     clients, probes, refusals, golden files) is package harness's; this package imports
//     only the standard library and go.yaml.in/yaml/v3.
//
// Decisions where the design is silent:
//   - The tool's timeouts are written in the tool's own unit, whole seconds without a unit
//     (timeout: 5), so they read as the model writes them; every other time is a duration
//     with a unit (5s, 250ms). A service askTimed timeout is a duration (its unit is ms).
//   - Malformed arguments are written raw: a string where questions, sub-calls or answers
//     are expected is the raw JSON the model or the caller sends.
//   - A step that a port refuses at its time is an impossible scenario (exit 2 at the
//     step's line) unless the step says refused: with part of the expected message.
//   - A Session s1 is opened at time 0 when the scenario declares none; a client that
//     names no reconnect never redials by itself.
package scenarios
