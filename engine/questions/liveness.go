package questions

import "github.com/twosettle/twosettle/engine/wire"

// checkLive is the liveness check shared by ask (with an agent), askTimed, attachWait and
// answer (docs/PEER.md §4.1, CALLER-4):
//   - CALLER_NOT_LIVE unless a is exactly the registry's live instance for its id: a stale
//     instance that shares a live id is not live (CALLER-1); so is a nil agent;
//   - DELEGATED_CALLER when the live agent is owned by another live agent (CALLER-2).
//
// Runtime ownership decides, not durable lineage (CALLER-3): a resumed root asks whatever
// its Session's fork or delegation history.
func (s *Service) checkLive(a Agent) *wire.Error {
	if a == nil || s.rt == nil || !s.rt.Live(a) {
		return errCallerNotLive()
	}
	if !s.rt.Root(a) {
		return errDelegatedCaller()
	}
	return nil
}
