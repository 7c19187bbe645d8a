// Package judge owns the equivalence by which an external host's run is compared with the
// reference engine's run of the same scenario and seed (docs/PROTOCOL.md, "How a run is
// judged"). It is the one place that says what of a run is observable, and how two
// observations may differ and still conform.
//
// Contract:
//   - Observe reads a trace (records and final state) into an Observation: the run's
//     observable behaviour as named streams of timed items. Observable is what a client,
//     the model, an RPC caller or a Session-log reader sees of the decision: the frames
//     each client receives (one stream per client), the RPC replies each client receives,
//     the question-related events of each Session's log (tool definitions, tool calls and
//     results, user messages, PTC dispatches: one stream per Session), direct service
//     results, which commands the host refused (not the words), what each simulated
//     client did in answer, and what every probe and the final state show of the
//     projection, the inboxes and the clients' cards, drafts, rows and nodes.
//   - Not observable, never compared: persistence timing (`persisted` effects, persisted
//     counts: the oracle judges durability, AGENT-6), wait notes and the volatile state
//     (the oracle judges them where the host declares introspection), the reference
//     runtime's own bookkeeping (turn and step events, inbox splice events, event seqs,
//     turn and step numbers, a Session-update frame that shows nothing new, a Session's
//     phase), refusal words, the simulator's own records.
//   - Equivalence (Compare): each stream is compared item by item, text and virtual time
//     exactly; streams are independent, so the order inside one instant of items on
//     different streams is free while causal order per client, per Session and per
//     stream is kept. Ids a host mints (waterfall event ids, inbox message ids) are
//     renamed by order of first appearance (⟨e1⟩, ⟨m1⟩) in the observation itself, by
//     their place in the vocabulary, never by matching text.
//   - Port makes two runs comparable at all: it wraps a host so that the simulator sees
//     its effects in a canonical order (independent effects of one Apply reordered by
//     destination, durability effects kept in place) and its minted ids under the
//     reference run's names (commands that name them translated back), so that the same
//     scenario and seed drive a correct host through the same schedule as the reference.
//   - Difference names the requirement ids its comparison judges (Requirements).
//   - The wait profile (conform's wait_judge.go) applies the same relation to the timed
//     wait's events: each claim stream and each wait is a stream, compared exactly with
//     its times, and the order across them inside one instant is free.
//
// judge reads only the vocabulary (engine/wire, engine/session) and trace records; it
// never imports the reference engine's internals, so the code it judges is not its own.
package judge
