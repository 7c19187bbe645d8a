package fileio

import (
	"fmt"
	"io"
	"sync"
)

// Output is a command's stdout that remembers its first failed write (a full device, a
// closed descriptor), so the command can exit non-zero instead of reporting a result
// nobody received. Every write after a failure fails the same way. It is safe for
// concurrent use.
type Output struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// NewOutput wraps w.
func NewOutput(w io.Writer) *Output { return &Output{w: w} }

func (o *Output) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		o.err = err
	}
	return n, err
}

// Err is the first write's failure, or nil.
func (o *Output) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// Checked runs a command whose stdout is checked: when a write to it failed, the failure
// is reported on stderr as cmd's and the exit code is 2 (the output was lost), unless
// the command was interrupted (keep is the codes kept as they are, e.g. 130).
func Checked(cmd string, stdout, stderr io.Writer, run func(stdout io.Writer) int, keep ...int) int {
	out := NewOutput(stdout)
	code := run(out)
	if err := out.Err(); err != nil {
		fmt.Fprintf(stderr, "%s: cannot write the output: %v\n", cmd, err)
		for _, k := range keep {
			if code == k {
				return code
			}
		}
		return 2
	}
	return code
}
