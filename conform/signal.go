package conform

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// sigterm is the signal a job runner stops the conform command with.
var sigterm = syscall.SIGTERM

// ExitInterrupted is the exit code of a command interrupted (Ctrl-C, SIGTERM) before its
// work was done and with no failure found: 128+SIGINT, as a shell reports it, as simrun
// fuzz exits, so CI never reads an unfinished run as a pass.
const ExitInterrupted = 130

// interruptible is how a command that drives host processes is interrupted (Ctrl-C,
// SIGTERM). The first signal ends ctx: no new run starts, and the runs in progress finish
// on their hosts, which the signal did not reach (each is in its own process group), so
// a correct host is never blamed for the interruption. A second signal, or grace after
// the first, closes pool: the runs still in progress lose their host, and the command
// reports none of them (cutShort). stop (deferred, once the command is done with pool)
// closes pool and waits until every host is reaped, and only then stops catching the
// signals: a signal while the hosts are being closed cannot end the command before they
// are gone.
func interruptible(pool *Pool, grace time.Duration) (ctx context.Context, stop func()) {
	return interruptibleHosts(pool, grace)
}

// hostCloser is what interruptibleHosts closes: every host process of a command, and
// Close returns once they are reaped (Pool, hostSlot).
type hostCloser interface{ Close() }

// interruptibleHosts is interruptible for any set of host processes.
func interruptibleHosts(pool hostCloser, grace time.Duration) (ctx context.Context, stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, sigterm)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		cancel()
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-sigs:
		case <-t.C:
		case <-done:
			return
		}
		pool.Close()
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			close(done)
			pool.Close()
			signal.Stop(sigs)
			cancel()
		})
	}
}

// cutShort reports whether r is a run the interruption cut short: its host was lost
// after ctx ended (the pool closed under it). Such a run is not reported: it is no
// verdict on the host.
func cutShort(ctx context.Context, r ScenarioResult) bool {
	return ctx.Err() != nil && r.Status == StatusBroken
}

// interruptedExit is the exit code of a command that ran with interruptible: 1 when a
// failure was found (interrupted or not), ExitInterrupted when ctx was interrupted with
// none found, 0 otherwise.
func interruptedExit(ctx context.Context, ok bool) int {
	switch {
	case !ok:
		return 1
	case ctx.Err() != nil:
		return ExitInterrupted
	}
	return 0
}

// verdictOK is the ok of interruptedExit for a report: conformant, or, when ctx was
// interrupted, no failure found (a run cut short is no verdict, but the requirement ids
// it never reached are not the host's failure either: NO VERDICT for a partial run is the
// interruption's).
func verdictOK(ctx context.Context, rep *Report) bool {
	if ctx.Err() == nil {
		return rep.Conformant()
	}
	_, fail, _, broken := rep.Summary()
	if fail > 0 || broken > 0 {
		return false
	}
	for _, row := range rep.Requirements() {
		if row.Status == StatusFail {
			return false
		}
	}
	return true
}
