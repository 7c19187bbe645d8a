package conform

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/twosettle/twosettle/engine/wire"
)

// Limits of a host process (docs/PROTOCOL.md, "A host that misbehaves").
const (
	DefaultTimeout    = 5 * time.Second
	DefaultMaxLine    = 16 << 20 // bytes of one host line, newline excluded
	DefaultStderrTail = 8 << 10  // bytes of the host's stderr kept for the report
	DefaultKillGrace  = time.Second
	// MaxLineLimit is the largest --max-line: a line is held in memory whole, and a
	// limit near 2^63 overflowed the check against it.
	MaxLineLimit = 1 << 30
	// MaxWorkers is the most workers conform fuzz runs (one host process each).
	MaxWorkers = 256
)

// ProcessOptions are the limits the runner holds a host process to. Zero values are the
// defaults.
type ProcessOptions struct {
	// Timeout is how long the runner waits for each reply (and for a write to be taken).
	Timeout time.Duration
	// MaxLine is the largest line a host may write.
	MaxLine int
	// StderrTail is how much of the end of the host's stderr is kept.
	StderrTail int
	// KillGrace is how long a host has to exit after bye (then SIGTERM), and after
	// SIGTERM (then SIGKILL, to its whole process group).
	KillGrace time.Duration
	// Env is added to the runner's environment for the host.
	Env []string
	// Profile is the part of the protocol the runner asks for in its hello ("" or
	// ProfileHost: the whole host). A host whose hello does not offer it is refused.
	Profile string
}

func (o ProcessOptions) normalised() ProcessOptions {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxLine <= 0 {
		o.MaxLine = DefaultMaxLine
	}
	o.MaxLine = min(o.MaxLine, MaxLineLimit)
	if o.StderrTail <= 0 {
		o.StderrTail = DefaultStderrTail
	}
	if o.KillGrace <= 0 {
		o.KillGrace = DefaultKillGrace
	}
	return o
}

// lineRead is one line of host output, or why there is none.
type lineRead struct {
	line []byte
	err  error
}

// Process is one host process speaking the protocol on its stdin and stdout, in its own
// process group. It serves one request at a time (a Pool gives each worker its own). Any
// protocol failure kills it and makes it lost for good: every later request returns the
// same *wire.PortLost.
type Process struct {
	argv  []string
	opts  ProcessOptions
	cmd   *exec.Cmd
	stdin *os.File
	lines chan lineRead
	tail  *tailBuffer
	done  chan struct{} // closed once the process has exited and been reaped
	exit  error         // cmd.Wait's result, valid after done
	quit  chan struct{} // closed when the runner stops listening (the reader then stops)
	errs  chan struct{} // closed when the host's stderr has been read to its end
	once  sync.Once

	info HostInfo
	n    int64
	buf  []byte

	mu     sync.Mutex
	lost   *wire.PortLost
	closed bool
}

// Start starts argv as a host process and exchanges hellos. An error means the host
// could not be started or does not speak the protocol (the process is then gone).
func Start(argv []string, opts ProcessOptions) (*Process, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty host command")
	}
	opts = opts.normalised()
	p := &Process{argv: argv, opts: opts, lines: make(chan lineRead, 1), tail: newTailBuffer(opts.StderrTail),
		done: make(chan struct{}), quit: make(chan struct{}), errs: make(chan struct{})}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	p.cmd = exec.Command(argv[0], argv[1:]...)
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, errW
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if len(opts.Env) > 0 {
		p.cmd.Env = append(os.Environ(), opts.Env...)
	}
	err = p.cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("cannot start the host %s: %w", quoteArgv(argv), err)
	}
	p.stdin = inW
	go p.readLines(outR)
	go func() { io.Copy(p.tail, errR); errR.Close(); close(p.errs) }()
	go func() { p.exit = p.cmd.Wait(); close(p.done) }()
	if err := p.hello(); err != nil {
		p.kill()
		err = p.withExit(err)
		// no run to keep it in: what the host said before it failed goes with the error
		if t := strings.TrimSpace(p.Stderr()); t != "" {
			err = fmt.Errorf("%w; the host's stderr:\n%s", err, t)
		}
		return nil, err
	}
	return p, nil
}

// readLines reads the host's stdout line by line into p.lines; it stops at the first
// error (end of output, a line over the limit).
func (p *Process) readLines(r *os.File) {
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var line []byte
		for {
			chunk, err := br.ReadSlice('\n')
			if len(line)+len(chunk) > p.opts.MaxLine+1 {
				p.send(lineRead{err: fmt.Errorf("the host wrote a line longer than %d bytes", p.opts.MaxLine)})
				return
			}
			line = append(line, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				if len(line) > 0 {
					p.send(lineRead{err: errors.New("the host's output ended inside a line (no newline after " + fmt.Sprint(len(line)) + " bytes)")})
				} else {
					p.send(lineRead{err: errEOF})
				}
				return
			}
			break
		}
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if !p.send(lineRead{line: line}) {
			return
		}
	}
}

// send hands one read to the runner, unless it has stopped listening.
func (p *Process) send(r lineRead) bool {
	select {
	case p.lines <- r:
		return true
	case <-p.quit:
		return false
	}
}

var errEOF = errors.New("the host closed its output (it exited or crashed)")

// Info is what the host said of itself.
func (p *Process) Info() HostInfo { return p.info }

// Argv is the host command.
func (p *Process) Argv() []string { return p.argv }

// Stderr is the tail of what the host wrote on its stderr so far (all of it, once the
// host has exited).
func (p *Process) Stderr() string {
	select {
	case <-p.done:
		select {
		case <-p.errs:
		case <-time.After(500 * time.Millisecond): // a child of the host keeps the pipe
		}
	default:
	}
	return p.tail.String()
}

// Lost is the failure that ended the process, or nil.
func (p *Process) Lost() *wire.PortLost {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lost
}

func (p *Process) hello() error {
	if err := p.write(helloLine(p.opts.Profile)); err != nil {
		return err
	}
	m, err := p.read("hello")
	if err != nil {
		return err
	}
	if m.Type != TypeHello {
		return fmt.Errorf("the host did not say hello: its first message is %q", m.Type)
	}
	if str(m.Protocol) != Protocol {
		return fmt.Errorf("the host speaks protocol %q; this runner speaks %q", str(m.Protocol), Protocol)
	}
	if str(m.Name) == "" {
		return errors.New(`the host's hello has no "name"`)
	}
	feats := append([]string(nil), m.Features...)
	seen := map[string]bool{}
	for _, f := range feats {
		if seen[f] {
			return fmt.Errorf("the host's hello declares feature %q twice", f)
		}
		seen[f] = true
	}
	profiles := m.Profiles
	if profiles == nil {
		profiles = []string{ProfileHost} // a host from before profiles serves the whole host
	}
	p.info = HostInfo{Name: str(m.Name), Version: str(m.Version), Features: slices.Sorted(slices.Values(feats)),
		Profiles: slices.Sorted(slices.Values(slices.Clone(profiles)))}
	want := p.opts.Profile
	if want == "" {
		want = ProfileHost
	}
	if !slices.Contains(profiles, want) {
		return fmt.Errorf("the host does not serve the %s profile: its hello offers %s", want, strings.Join(p.info.Profiles, ", "))
	}
	return nil
}

// request sends one request line and reads its reply: a message of one of the types
// want with the request's number. Any failure loses the process.
func (p *Process) request(line []byte, n int64, what string, want ...string) (*hostMessage, error) {
	if l := p.Lost(); l != nil {
		return nil, l
	}
	select {
	case r := <-p.lines:
		if r.err != nil {
			return nil, p.fail(r.err)
		}
		return nil, p.fail(fmt.Errorf("the host wrote output out of turn, before the %s request: %s", what, clip(r.line)))
	default:
	}
	if err := p.write(line); err != nil {
		return nil, p.fail(err)
	}
	m, err := p.read(what)
	if err != nil {
		return nil, p.fail(err)
	}
	if m.Type == TypeError {
		return nil, p.fail(fmt.Errorf("the host gave up at the %s request: %s", what, str(m.Message)))
	}
	ok := false
	for _, w := range want {
		ok = ok || m.Type == w
	}
	if !ok {
		return nil, p.fail(fmt.Errorf("the host answered the %s request (n=%d) with a %q message", what, n, m.Type))
	}
	if *m.N < n {
		return nil, p.fail(fmt.Errorf("the host wrote output out of turn: a %s message for request n=%d, which was already answered (the %s request is n=%d)", m.Type, *m.N, what, n))
	}
	if *m.N != n {
		return nil, p.fail(fmt.Errorf("the host answered the wrong request: the %s request was n=%d, its %s reply says n=%d", what, n, m.Type, *m.N))
	}
	return m, nil
}

func (p *Process) next() int64 { p.n++; return p.n }

func (p *Process) write(line []byte) error {
	p.stdin.SetWriteDeadline(time.Now().Add(p.opts.Timeout))
	if _, err := p.stdin.Write(line); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("the host did not read its input for %s", p.opts.Timeout)
		}
		return fmt.Errorf("cannot write to the host: %v", err)
	}
	return nil
}

func (p *Process) read(what string) (*hostMessage, error) {
	t := time.NewTimer(p.opts.Timeout)
	defer t.Stop()
	select {
	case r := <-p.lines:
		if r.err != nil {
			return nil, r.err
		}
		m, err := decodeHostMessage(r.line)
		if err != nil {
			return nil, fmt.Errorf("the host's reply to the %s request is not a protocol message: %v: %s", what, err, clip(r.line))
		}
		return m, nil
	case <-t.C:
		return nil, fmt.Errorf("the host did not answer the %s request within %s", what, p.opts.Timeout)
	}
}

// fail loses the process for good: it is killed, and err (with its exit status when it
// has exited) is what every later call returns.
func (p *Process) fail(err error) *wire.PortLost {
	p.mu.Lock()
	if p.lost != nil {
		l := p.lost
		p.mu.Unlock()
		return l
	}
	p.mu.Unlock()
	p.kill()
	l := &wire.PortLost{Err: p.withExit(err)}
	p.mu.Lock()
	p.lost = l
	p.mu.Unlock()
	return l
}

// withExit appends how the process ended, when it has.
func (p *Process) withExit(err error) error {
	select {
	case <-p.done:
	case <-time.After(p.opts.KillGrace):
		return err
	}
	if p.exit == nil {
		return fmt.Errorf("%w (the host exited with status 0)", err)
	}
	return fmt.Errorf("%w (the host ended: %v)", err, p.exit)
}

// kill ends the process group: SIGTERM, then SIGKILL after the grace period, and waits
// until the process is reaped.
func (p *Process) kill() {
	p.once.Do(func() { close(p.quit) })
	select {
	case <-p.done:
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) // what is left of its group
		return
	default:
	}
	pid := p.cmd.Process.Pid
	syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(p.opts.KillGrace):
		syscall.Kill(-pid, syscall.SIGKILL)
		<-p.done
	}
	// whatever is left of its group (a child that kept the pipes) goes too
	syscall.Kill(-pid, syscall.SIGKILL)
}

// Close says bye and waits for the host to exit (then terminates its process group);
// it is safe to call more than once and on a lost process.
func (p *Process) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	lost := p.lost
	p.mu.Unlock()
	if lost == nil {
		if p.write(byeLine()) == nil {
			p.stdin.Close()
			select {
			case <-p.done:
			case <-time.After(p.opts.KillGrace):
			}
		}
	}
	p.stdin.Close()
	p.kill()
	return nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	dropped bool
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.dropped = true
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped {
		return "…" + string(t.buf)
	}
	return string(t.buf)
}

// clip shows at most 200 bytes of a line in a message.
func clip(b []byte) string {
	const max = 200
	if len(b) > max {
		return strings.ToValidUTF8(string(b[:max]), "?") + "… (" + fmt.Sprint(len(b)) + " bytes)"
	}
	return strings.ToValidUTF8(string(b), "?")
}
