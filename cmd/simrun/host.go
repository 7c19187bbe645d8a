package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/twosettle/twosettle/conform"
	"github.com/twosettle/twosettle/harness"
)

// hostFlag is --host 'CMD ARGS': run against a host process speaking twosettle-conform/1
// (docs/PROTOCOL.md) instead of the in-process reference host.
func hostFlag(fs *flag.FlagSet) *string {
	return fs.String("host", "", "run against this host process over twosettle-conform/1 (e.g. 'conform refhost') instead of the reference host")
}

// openHost starts the host command's first process: nil factory and a no-op close for
// "" (the reference host). A host that cannot be used is reported; ok is false (exit 2).
func openHost(name, cmdline string, stderr io.Writer) (h harness.HostFactory, closeHost func(), ok bool) {
	h, _, closeHost, ok = openHostFeatures(name, cmdline, stderr)
	return h, closeHost, ok
}

// openHostFeatures is openHost that also returns the features the host declares (nil for
// the reference host, which has every feature).
func openHostFeatures(name, cmdline string, stderr io.Writer) (h harness.HostFactory, features []string, closeHost func(), ok bool) {
	if cmdline == "" {
		return nil, nil, func() {}, true
	}
	argv, err := conform.SplitCommand(cmdline)
	if err != nil {
		fmt.Fprintf(stderr, "%s: --host: %v\n", name, err)
		return nil, nil, nil, false
	}
	pool := conform.NewPool(argv, conform.ProcessOptions{})
	info, err := pool.Hello()
	if err != nil {
		fmt.Fprintf(stderr, "%s: the host cannot be used: %v\n", name, err)
		pool.Close()
		return nil, nil, nil, false
	}
	if info.Features == nil {
		info.Features = []string{}
	}
	return pool.Factory, info.Features, pool.Close, true
}

// replayHost is --host as a replay line repeats it: shell-quoted, "" for the reference
// host.
func replayHost(cmdline string) string {
	if cmdline == "" {
		return ""
	}
	return conform.ShellQuote(cmdline)
}
