package tracemodel

// StreamEnd is why a claim stream ended.
type StreamEnd uint8

// Ways a claim stream ends.
const (
	StillOpen    StreamEnd = iota // open at the end of the run
	EndFrame                      // the host's end frame
	ErrorFrame                    // the host's error frame
	CancelledBy                   // the client cancelled it
	Disconnected                  // its client disconnected (or connected anew)
	Restarted                     // the host restarted
)

// Stream is a client's attachWait claim stream as the host saw it: from the host's
// stream-open to its end (end or error frame, the client's cancel, a disconnect, a new
// connection of the client, a restart).
type Stream struct {
	Client string
	Gen    int
	ID     string
	Call   *Call
	Open   int // the host's stream-open record
	OpenAt int64
	End    int // the record that ended it; -1: still open at the end of the run
	EndAt  int64
	Why    StreamEnd
}

// ClientStream is the same claim stream as its client saw it: opened by its open-stream
// effect, its first frame (the item carrying remainingMs) and its end (the host's end or
// error frame, the client's link going down, its page reloading or the client crashing).
type ClientStream struct {
	Client string
	ID     string
	Gen    int
	Call   *Call
	Open   int // the client's open-stream record
	Frame  int // the first item frame's record; -1: none yet
	End    int // -1: open at the end of the run
}

// Waiting reports whether the stream was open at record i with no frame yet.
func (s *ClientStream) Waiting(i int) bool {
	return s.Open < i && (s.End < 0 || s.End >= i) && (s.Frame < 0 || s.Frame >= i)
}

// Claimed reports whether the stream was open at record i and had its frame.
func (s *ClientStream) Claimed(i int) bool {
	return s.Open < i && (s.End < 0 || s.End >= i) && s.Frame >= 0 && s.Frame < i
}

// Conn is one connection of a client as the host saw it: from its Connect command to
// its Disconnect (or the next Connect, or a restart).
type Conn struct {
	Client string
	Gen    int // the generation the host's frames and the client's commands on it carry (0: none seen)
	Rec    int
	End    int // -1: still up at the end of the run
}
