// Package sessionlog reads and writes Session logs and view files in their neutral JSON
// Lines form (docs/PROTOCOL.md, "Session log files"; docs/protocol/session-log.schema.json):
// what `simrun export` writes, what `conform projection --log` reads, and what a team
// records from its own system to check it against the reference projection.
//
// A log file is a header line naming the format, the Session, its fork parent and how
// many events it inherited, then one Session event per line (engine/wire's event codec).
// A view file is one line per event, {"seq":N,"view":{…}}: the userQuestions view after
// that event.
//
// Contract:
//   - Decoding is strict, line by line: every line goes through engine/wire's strict
//     decoders, event seqs must increase, and an error names the file and line
//     ("export/s1.jsonl:3: event.seq: want an integer, got string").
//   - Encoding is canonical: the same Log gives the same bytes, every line ends with a
//     newline, and Decode(Append(l)) == l.
//   - Files are read as the commands read every input (fileio.OpenLimited: a regular file
//     only, at most MaxFileSize bytes), and judged line by line as they are read
//     (LogReader, ViewReader): a malformed line is reported when it is reached, never
//     after the whole file was read, and a line is at most MaxLineSize bytes.
//
// Imports: the standard library, engine/session, engine/wire, engine/questions (Views, the
// reference projection) and fileio.
package sessionlog
