// Package schemacheck validates JSON values against the JSON Schema files of docs/protocol,
// so a test can check that what the module writes (the codec's samples, simrun export's
// Session logs, the projection profile's edge logs, the wait profile's messages) is what
// those files document. It knows the keywords the files use and no others: $ref to a file
// of the same directory with an optional JSON-pointer fragment (or "#/…", a place in the
// same file), type, const, enum, properties, required, dependentRequired, additionalProperties false, items,
// oneOf, anyOf, minLength and minimum; any other keyword is ignored (the files are generated or reviewed with that in mind). Validation is
// deterministic: a value gives the same answer and the same message every time. Standard
// library only.
package schemacheck
