// Command conform drives an external host through the scenario library and the fuzzer
// over the twosettle-conform/1 protocol (docs/PROTOCOL.md), and serves the reference
// host over that protocol (conform refhost). It is thin: package conform holds the
// logic, which its tests call.
//
//	conform --host 'CMD ARGS' [--seed N] [--json FILE] [--junit FILE] [--timeout D] [--allow-partial] [-v] [FILES|DIRS]
//	conform fuzz --host 'CMD ARGS' [--seeds N | --duration D] [--start S] [--shard K/N] [--workers W] [--out DIR]
//	conform refhost [--mutant NAME] [--variant NAME[,NAME...]]
//
// Exit codes: 0 conformant, 1 a failure, 2 bad usage, invalid input or a host that does
// not speak the protocol.
package main

import (
	"os"

	"github.com/twosettle/twosettle/conform"
)

func main() { os.Exit(conform.Command(os.Args[1:], nil)) }
