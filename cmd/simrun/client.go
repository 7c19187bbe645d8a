package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/twosettle/twosettle/conform"
	"github.com/twosettle/twosettle/harness"
)

// clientFlag is --client 'CMD ARGS': every client of a run (not the hold: true answerers,
// which stay the harness's fixtures) is a process speaking the client vocabulary of
// twosettle-conform/1 (docs/PROTOCOL.md "Clients"), as conform --client runs it, so an
// answer UI gets the scenarios' expectations, the oracle and the transcripts.
func clientFlag(fs *flag.FlagSet) *string {
	return fs.String("client", "", "run with this client process as every client, over twosettle-conform/1 (e.g. 'conform refclient'), instead of the reference client")
}

// openClient starts the client command's first process and reads its hello: nil factory
// and a no-op close for "" (the reference client). A client that cannot be used is
// reported; ok is false (exit 2).
func openClient(name, cmdline string, stderr io.Writer) (c harness.ClientFactory, closeClient func(), ok bool) {
	if cmdline == "" {
		return nil, func() {}, true
	}
	argv, err := conform.SplitCommand(cmdline)
	if err != nil {
		fmt.Fprintf(stderr, "%s: --client: %v\n", name, err)
		return nil, nil, false
	}
	pool := conform.NewPool(argv, conform.ProcessOptions{})
	if _, err := pool.Hello(); err != nil {
		// The Process words its failures for a host.
		fmt.Fprintf(stderr, "%s: the client cannot be used: %s\n", name, strings.ReplaceAll(err.Error(), "the host", "the client"))
		pool.Close()
		return nil, nil, false
	}
	return pool.ClientFactory, pool.Close, true
}

// clientOptions sets what a run with a client process needs on opts: the process as every
// client, and a UI's own words accepted where a step says refused: or an expectation says
// hint: (docs/PROTOCOL.md "Clients": what a UI words its own way is compared as present).
func clientOptions(opts *harness.Options, clients harness.ClientFactory) {
	if clients == nil {
		return
	}
	opts.Client, opts.AnyRefusalText, opts.AnyHintText = clients, true, true
}

// replayClient is --client as a replay line repeats it: shell-quoted, "" for the reference
// client.
func replayClient(cmdline string) string {
	if cmdline == "" {
		return ""
	}
	return conform.ShellQuote(cmdline)
}
