// Package sim is the deterministic discrete-event simulator (docs/ARCHITECTURE.md §1–§3, §9): it runs one
// host and any number of clients through their ports (wire.HostPort, wire.ClientPort)
// under a virtual clock, a seeded scheduler, a modelled network and injected faults, and
// records everything that happens as a trace (package trace).
//
// # Use
//
//	cfg := sim.Config{Seed: 7, Clients: []sim.ClientConfig{{Name: "c1", Mux: sim.Latency{Min: 5, Max: 20}, ...}},
//		Steps: []sim.Step{{At: 0, Host: wire.Send{...}}, ...}, Model: sim.ModelConfig{AutoEndMs: 100}}
//	tr, err := sim.Simulate(cfg, host, map[string]wire.ClientPort{"c1": c1})
//	fmt.Print(tr.Text())                    // one canonical line per record
//	tr.Final.Lines()                        // the final state
//	sim.SelfCheck(cfg, buildPorts)          // run twice, report the first divergent record
//
// The caller builds fresh ports (the reference engine's, or an external host's adapter);
// a Runner reuses its buffers across runs (one per fuzz worker). Validate reports every
// configuration the simulator cannot honour as a *ConfigError before anything runs.
//
// # Contract
//
//   - Imports: the standard library, engine/wire, engine/session (event types) and trace.
//     Never engine/host, engine/client or any engine internal: ports only.
//   - Nothing reads the wall clock; no goroutines; no map iteration reaches output.
//     Same Config + same ports' behaviour = byte-identical trace, whatever GOMAXPROCS.
//   - The seed is split into independent PCG streams (streams.go): schedule (ties),
//     network (latencies), faults (random faults, crash cuts), generation (for the
//     fuzzer's generator; the simulator never draws from it).
//   - Effects and inputs are immutable values: the trace keeps the very interface values
//     the ports returned (no copy, no formatting during a run); text is rendered on demand.
//
// # Time and scheduling
//
// Time is virtual milliseconds from 0: Config's instants (Limit, Healed, Step.At) are
// wire.Time and its spans (latencies, offsets, backoffs, fault lengths) wire.Duration, as
// the ports' times are; inside, the simulator and its trace count in int64 ms. The queue
// orders events by (time, sequence). At each instant the candidates are: the host's timer if NextDeadline is due, each client's
// timer if due (client deadlines are on the client's clock and converted to simulator
// time: the earliest time its clock reads the deadline), and the queued events due now,
// of which an ordered channel (the script, each mux link direction) offers only its head.
// With more than one candidate the schedule stream picks one uniformly and a Sched record
// ("pick=P of=N", candidates in the order above) precedes the chosen event's records;
// every chosen candidate leaves at least one record. An Apply that returns an error is a
// Reject record; effects returned together with the error (timers that came due before
// the refused input) are still routed. A due host timer is delivered as
// wire.Tick, a client timer as wire.ClientTick. Steps are delivered in order (ties keep
// their order) but other events may interleave between two steps of the same instant.
// The run ends when nothing is due (quiescence) or at the first event due after Limit
// (Final.Time is then Limit). A timer that stays due after 10 000 ticks at one instant,
// or a trace beyond MaxRecords, fails the run.
//
// # Network (docs/PEER-RUNTIME.md §7.1, §7.4)
//
// Each client has an ordered, reliable mux link (both directions FIFO whatever the
// latencies drawn) and an HTTP channel whose messages travel independently (so an
// $events/result may overtake or lag the frames around it). Latencies are drawn per
// message from the client's Latency ranges.
//   - Connecting: a client dials at time 0 unless Offline. A Connect travels the up link
//     and the first Ready the host sends that client after taking the Connect names the
//     generation; from then on SendFrame effects for that generation travel the down
//     link, and frames for any other generation are dropped (Drop why=dead-gen).
//   - Client effects: Dial (a connection attempt after ReconnectMs of backoff; at once
//     for the first Dial after a reload or a reconnect step; ignored while an attempt is
//     under way; with ReconnectMs < 0 only a reconnect step connects), SendResult and
//     SendCall (HTTP: wire.EventResult, wire.Call), OpenStream and CancelStream (mux:
//     wire.StreamOpen, wire.StreamCancel; dropped when the link is down). A Dial while the
//     link is up closes that link (the client failed its generation): what the client
//     already sent still reaches the host, then Disconnect; frames in flight to it are
//     lost. A Dial provoked by a LinkDown that a newer attempt already superseded is
//     ignored. The first Dial after a reload or a reconnect step leaves at once, even
//     with ReconnectMs < 0.
//   - Host effects: SendFrame (mux), Reply (HTTP). A Reply emitted while the host applies
//     an HTTP request with that rpc id answers exactly that request; otherwise it answers
//     the latest outstanding Call with that rpc id. An EventResult is answered within its
//     own Apply or not at all. A second reply, or one to no request, is dropped
//     (why=no-request). When the host crashes, every Call it had received and not
//     answered fails at the client (the connection died with it).
//   - A link going down (disconnect step, partition, reload, client crash, host
//     restart) loses everything in flight on it in both directions (a Drop record each);
//     the host gets Disconnect (unless it restarted) and the client LinkDown (unless it
//     reloaded or crashed), both ordered on the link's FIFO before anything of a later
//     generation.
//   - HTTP loss: a lose step loses the client's next HTTP message, a partition loses
//     every HTTP message in flight or sent while it lasts; the client then receives a
//     failure envelope (code NetFailedCode) when the message would have arrived, as a
//     failed fetch. A delay step adds its duration to the next HTTP message. A reply
//     for a page that has since reloaded is dropped (why=client-reloaded).
//   - During a partition connection attempts wait for its end.
//
// # Faults
//
// Faults are scripted (Step.Fault, Step.Net) or drawn from the fault stream (Config.Faults:
// Poisson arrivals per kind, drawn up front in a fixed kind order before Healed, or
// before Limit when Healed is 0; targets uniform). Each is a Fault record.
//   - crash: a scripted crash with no point restarts the host between commands. A crash
//     point arms a watcher; the first later host Apply (not a restart's) where the point
//     exists is cut after its first k effects: those are recorded and routed, the rest
//     never happened, and the host gets wire.Restart{CutAfter: k} at once. Points:
//     after-effect: the next Apply with more than Effect effects other than wait notes, cut
//     before the next of them (wait notes do not count: a host without introspection sends none).
//     before-ptc-dispatch: the next Apply appending tool/ptc-dispatch; k = index of the
//     first later Persisted in it that covers the record, or all its effects if none
//     (a write-behind host persists later: the crash lands inside the window).
//     after-ptc-dispatch: k = just after the Persisted that covers the next appended
//     tool/ptc-dispatch (in the same or a later Apply, such as a write-window flush).
//     before-answer-ack / after-answer-ack: the next userQuestions/answer Call; k = at /
//     just after the host's Reply to it (in that or a later Apply).
//     between-claim-admit: k = just before the next appended user/message whose source is
//     user-question-reply (its claim came before it).
//     inside-write-window: the next Apply that appends; k = the latest cut after which
//     some event appended in it is not yet durable.
//     A random crash lands inside the next host Apply with k uniform in [0, n] (not after
//     Healed). After any restart every link is gone (clients get LinkDown and redial),
//     the model forgets open steps, and armed watchers forget what they were tracking.
//   - reload: the link drops (host Disconnect), the client gets wire.Reload, HTTP replies
//     for the old page are dropped, and its next Dial is immediate.
//   - client-crash: the link drops (host Disconnect) and nothing more reaches the client
//     (inputs, timers, user steps: Drop why=client-crashed).
//   - clock-jump, clock-drift: the client's clock is rebased (Clock); its pending timer is
//     re-converted.
//   - cancel-turn: the host gets wire.CancelTurn{Session, KeepInbox}.
//   - inbox-write-fail: the host gets wire.FailInboxWrite{Session}: its next inbox write
//     fails as a storage write error would (a steered late reply fails, LATE-5). Like a
//     crash it is a harness fault of the protocol, not a command of any actor; a random one
//     targets a Session as cancel-turn does.
//   - disconnect, reconnect, partition, delay, lose: the network actions above.
//
// # The model actor
//
// Scripted host commands go to the host as they are. For what the script leaves open the
// model follows each Session's step from the host's Appended effects (step/start opens,
// tool/call and tool/result of that turn and step count calls, step/end and turn/end
// close) and, with Model.AutoEndMs >= 0, ends an open step with EndStep{Final: true} (a
// Note "auto-end s1 turn=T step=N" first) when: the model has not ended the step yet
// (scripted or automatic EndStep), every tool call of the step has its result, and
// AutoEndMs have passed since the latest of the step's start, the model's last scripted
// command to that Session (Header, ToolCall, EndStep) and the step's last tool result;
// unless a scripted model command for that Session is due at that same instant (the
// script acts first, and the rule applies again after it).
//
// # Probes and the final state
//
// A Probe step records a trace.Snapshot of host.State() and every client's
// StateAt(its clock reading now) (copied, so later changes inside a port cannot alter it):
// a running countdown shows deadline − the client's now at the probe, not at its last
// input (CD-1). A probe is an observation: no input reaches a client, so adding an
// expectation adds no record but the probe itself (a crashed client shows its state at the
// crash). The trace's Final holds the same at the end of the run (Final.Time).
//
// # Divergences and choices where the spec is silent
//
//   - Link loss is noticed at once by both sides (no heartbeat delay is modelled).
//   - HTTP has no silent loss: a lost request or reply reaches the client as a failure.
//   - A connection attempt in flight when the host restarts reaches the restarted host.
//
// # Exploration
//
// Runner.Chooser (nil by default: the schedule stream picks) takes the scheduler's picks
// and may place a step before any event (package sysexplore enumerates them);
// Runner.CanonicalOrder offers the candidates in an order that does not depend on when
// they were queued, and Runner.WriteState writes the canonical state an explorer hashes.
// None of it changes a run without a Chooser.
package sim
