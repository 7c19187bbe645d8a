// Package gateway is the generic Remote transport of the reference host (docs/PEER-RUNTIME.md
// §1–§3): forwarded waterfall requests with their pending table, fan-out, settlement, replay
// and cancellation; logical streams on each client's mux link; unary RPC envelopes. It is
// sans-IO: commands are method calls, and output is a sequence of wire effects.
//
// # What it owns
//
//   - Connections. Connect(client) opens a new generation of that client name (1, 2, … per
//     name, never reused) and queues wire.Ready, then replays every pending waterfall in
//     table insertion order under its original event id (GW-5). Disconnect(client) removes
//     that client's deliveries without settling anything (GW-6: a disconnect is not a
//     next) and ends every stream it had open: their signals abort with ErrConnectionLost
//     and no frame is sent, the link being gone (GW-7). Reset drops everything volatile for
//     a host restart, also without frames.
//   - Waterfalls. Forward(inv) mints the event id (e1, e2, …) and delivers one
//     wire.Waterfall frame to every connected client at once, in connect order (GW-5). The
//     first result or rejection from a client that still holds the delivery settles the
//     event once (GW-1); the winner gets no frame and every other delivered client gets
//     wire.Cancel. A next removes only that client's delivery; the event settles next once
//     no delivery remains (GW-6). When the invocation's Signal aborts, every delivered
//     client gets a cancel and the event settles rejected with the abort reason (GW-3). A
//     client's rejection is passed on unchanged (*wire.Error: name, code, message).
//   - Streams. Handle(endpoint, h) registers a stream handler; OpenStream calls it with a
//     *Stream whose Signal aborts on client cancel, disconnect or Reset; the handler emits
//     Item, End or Fail whenever it likes (now or later) or stays open indefinitely.
//   - RPC. HandleCall(endpoint, h) registers a unary handler; Call answers with a
//     wire.Reply envelope {ok:true,value?} or {ok:false,error:{code,message}} (GW-8). A
//     handler error that is (or wraps) a *Error keeps its code; anything else is
//     gateway/internal with the error's message.
//
// It knows nothing about any business event (GW-2): no event name is ever compared, no
// timer exists, and the package may import only the standard library, engine/signal,
// engine/jsonx (payloads are checked with jsonx.Valid, never looked into) and the
// transport part of engine/wire (imports_test.go enforces it).
//
// # Output
//
// Effects (wire.SendFrame, wire.Reply) go to Config.Emit when it is set, in the order they
// happen; otherwise they are buffered and Drain returns them. A host that composes several
// components passes the same Emit to all of them so that one Apply yields one ordered
// effect list. Callbacks (Settle, handlers) run synchronously inside the call that caused
// them, after the gateway's own state and frames for that step are complete, so they may
// call back into the gateway.
//
// # Decisions where the peer is silent or differs
//
//   - Ids are deterministic counters instead of UUIDs: event ids e1, e2, … and generations
//     1, 2, … per client name. Reset keeps both counters, so ids stay unique across a host
//     restart as the peer's UUIDs are, and a result from before the restart can never
//     match an event or a generation after it.
//   - Frames of one generation are queued as Ready, then the replayed waterfalls (the
//     order the client observes in the peer).
//   - Connect for a client name that is already connected first disconnects its old
//     generation (as a socket replaced by a new one), then opens the new one.
//   - Every Result answers its RPC with a wire.Reply: {ok:true} when the generation is
//     active, whether or not the outcome won or mattered (GW-4: the reply is no
//     acknowledgement of settlement), and a gateway/internal error envelope "… identifies
//     no active event stream" when it is not. An outcome of the wrong shape gets
//     gateway/arguments-invalid and changes nothing.
//   - An invalid invocation (empty event name or agent id, a request that is not JSON, no
//     Settle) is refused by Forward with an error and settles nothing; the peer rejects its
//     source with a TypeError, which the caller can do with that error.
//   - Invocation.Context is the agent-context lifetime of the peer: when it aborts the
//     event settles rejected with ErrContextReleased (cancel to all); if it is already
//     aborted at Forward, the event settles next at once and nothing is delivered.
//   - A duplicate stream id on one generation closes the socket in the peer; there is no
//     effect for a host-side socket close, so OpenStream refuses it with an error instead.
//     Opening a stream on a generation that is not active is an error too (its frames
//     could not have arrived).
//   - An unknown stream endpoint ends the stream with an error frame
//     gateway/unknown-endpoint; an unknown RPC endpoint replies with that code.
//
// # Mutants
//
// The branches marked MUTANT are the deliberate bugs of engine/mutant (docs/ARCHITECTURE.md §6), switched
// on only by Config.Mutants. With the zero set every path is the correct engine's; each
// mutant of this package is shown flipping its rule in mutant_test.go.
package gateway
