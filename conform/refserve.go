package conform

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/twosettle/twosettle/engine/wire"
)

// What every reference server shares (conform refhost in each profile, conform
// refclient): the hello exchange, the request loop and the reply lines they all write.

// runnerHello is the runner's hello as a server reads it.
type runnerHello struct {
	Type, Protocol, Runner, Profile string
}

// readRunnerHello reads the runner's first line, which must be a hello in this protocol;
// who names the server in the error ("refhost", "refclient"), what it calls itself in
// the protocol mismatch ("host", "client").
func readRunnerHello(r *bufio.Reader, who, what string) (runnerHello, error) {
	var hello runnerHello
	line, err := readRequest(r)
	if err != nil {
		return hello, err
	}
	if err := json.Unmarshal(line, &hello); err != nil || hello.Type != TypeHello {
		return hello, errors.New(who + ": the runner's first message is not a hello")
	}
	if hello.Protocol != Protocol {
		return hello, fmt.Errorf("%s: the runner speaks %q, this %s speaks %q", who, hello.Protocol, what, Protocol)
	}
	return hello, nil
}

// appendHelloStart appends a server's hello up to its features (the caller closes it):
// the protocol, its name and its version.
func appendHelloStart(b []byte, name, version string) []byte {
	b = append(b, `{"type":"hello","protocol":`...)
	b = wire.AppendJSONString(b, Protocol)
	b = append(b, `,"name":`...)
	b = wire.AppendJSONString(b, name)
	b = append(b, `,"version":`...)
	return wire.AppendJSONString(b, version)
}

// serveLines is a server's request loop: each line from r is answered with the line
// reply appends to a reused buffer, until reply says stop (bye), reply fails, or r ends
// (the runner went away: nothing to clean up in a pure engine).
func serveLines(r *bufio.Reader, w *bufio.Writer, reply func(b, line []byte) (out []byte, stop bool, err error)) error {
	var b []byte
	for {
		line, err := readRequest(r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var stop bool
		if b, stop, err = reply(b[:0], line); err != nil || stop {
			return err
		}
		if err := emit(w, b); err != nil {
			return err
		}
	}
}

// decodeRequest decodes a request line into req; who names the server in the error.
func decodeRequest(line []byte, req any, who string) error {
	if err := json.Unmarshal(line, req); err != nil {
		return fmt.Errorf("%s: a request that is not JSON: %v", who, err)
	}
	return nil
}

// appendReplyStart appends the start of a reply line of type typ to request n
// (`{"type":typ,"n":n`); the caller adds its keys and closes it with "}\n".
func appendReplyStart(b []byte, typ string, n int64) []byte {
	b = append(b, `{"type":`...)
	b = wire.AppendJSONString(b, typ)
	b = append(b, `,"n":`...)
	return strconv.AppendInt(b, n, 10)
}

// appendApplied appends the reply to an apply, for a host or a client alike: the effects
// in order, encoded by enc, the refusal if any, and the next deadline when there is one.
func appendApplied[E fmt.Stringer](b []byte, n int64, effs []E, enc func([]byte, E) ([]byte, error), refusal error, deadline wire.Time, hasDeadline bool) ([]byte, error) {
	b = append(b, `{"type":"applied","n":`...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"effects":[`...)
	for i, e := range effs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = enc(b, e); err != nil {
			return b, fmt.Errorf("cannot encode %s: %v", e, err)
		}
	}
	b = append(b, ']')
	if refusal != nil {
		b = append(b, `,"error":`...)
		b = wire.AppendJSONString(b, refusal.Error())
	}
	if hasDeadline {
		b = append(b, `,"deadline":`...)
		b = strconv.AppendInt(b, deadline.Ms(), 10)
	}
	return append(b, "}\n"...), nil
}

// errorLine is a server giving up on a request it cannot serve.
func errorLine(b []byte, n int64, msg string) []byte {
	b = append(b, `{"type":"error","n":`...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"message":`...)
	b = wire.AppendJSONString(b, msg)
	return append(b, "}\n"...)
}

func emit(w *bufio.Writer, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return err
	}
	return w.Flush()
}

// readRequest reads one line (without its newline); io.EOF at a clean end.
func readRequest(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadBytes('\n')
	if err == io.EOF && len(line) == 0 {
		return nil, io.EOF
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	return line, nil
}
