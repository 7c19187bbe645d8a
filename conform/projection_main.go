package conform

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/twosettle/twosettle/fileio"
	"github.com/twosettle/twosettle/sessionlog"
)

// projectionMain is conform --profile projection.
func projectionMain(args []string, stdout, stderr io.Writer, env []string) int {
	fs := flag.NewFlagSet("conform --profile projection", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var hf hostFlags
	hf.register(fs)
	library := fs.Bool("library", true, "fold every Session of the scenario library (--library=false: only fuzz and edge logs)")
	seeds := fs.Uint64("seeds", 200, "fuzz seeds whose Sessions are folded (0: none)")
	edge := fs.Uint64("edge", 500, "generated edge logs folded (0: none)")
	start := fs.Uint64("start", 1, "the first fuzz and edge seed")
	out := fs.String("out", "conform-failures", "the directory shrunk failing logs are written to")
	jsonOut := fs.String("json", "", "write the report as JSON to this file (- for stdout)")
	junitOut := fs.String("junit", "", "write the report as JUnit XML to this file")
	verbose := fs.Bool("v", false, "list every log folded, not only failures")
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		paths = append(paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if hf.host == "" {
		fmt.Fprintln(stderr, "conform: --host 'CMD ARGS' is required (try --host 'conform refhost')")
		return 2
	}
	if hf.timeout <= 0 || hf.maxLine <= 0 || hf.maxLine > MaxLineLimit {
		fmt.Fprintf(stderr, "conform: --timeout must be positive and --max-line between 1 and %d bytes\n", MaxLineLimit)
		return 2
	}
	argv, err := SplitCommand(hf.host)
	if err != nil {
		fmt.Fprintln(stderr, "conform: --host:", err)
		return 2
	}
	for _, o := range []struct{ flag, path string }{{"--json", *jsonOut}, {"--junit", *junitOut}} {
		if o.path == "" || o.path == "-" {
			continue
		}
		if err := fileio.CheckFile(o.path); err != nil {
			fmt.Fprintf(stderr, "conform: %s: %v\n", o.flag, err)
			return 2
		}
	}
	if err := fileio.CheckDir(*out); err != nil {
		fmt.Fprintln(stderr, "conform: --out:", err)
		return 2
	}
	var cases []ProjectionCase
	if len(paths) > 0 {
		var files []string
		for _, path := range paths { // a directory is its *.jsonl logs
			if fi, err := os.Stat(path); err == nil && fi.IsDir() {
				logs, err := logFilesIn(path)
				if err != nil {
					fmt.Fprintln(stderr, "conform:", err)
					return 2
				}
				files = append(files, logs...)
				continue
			}
			files = append(files, path)
		}
		for _, path := range files {
			l, err := sessionlog.ReadFile(path)
			if err != nil {
				fmt.Fprintln(stderr, logFileError(err))
				return 2
			}
			cases = append(cases, ProjectionCase{Name: path, Path: path, Log: l, Replay: true})
		}
	} else if cases, err = ProjectionInputs(*library, *seeds, *edge, *start); err != nil {
		fmt.Fprintln(stderr, "conform:", err)
		return 2
	}
	// Interrupted as the other commands are (interruptible): the first signal folds no
	// new log, a second (or hf.timeout after the first) closes the host, and the fold it
	// cuts short is not reported; stop returns once the host is reaped.
	hosts := &hostSlot{}
	ctx, stop := interruptibleHosts(hosts, hf.timeout)
	defer stop()
	rep, err := RunProjection(cases, ProjectionOptions{Argv: argv, Command: hf.host, OutDir: *out, Ctx: ctx, hosts: hosts,
		Process: ProcessOptions{Timeout: hf.timeout, MaxLine: hf.maxLine, Env: env}})
	if err != nil {
		fmt.Fprintln(stderr, "conform: the host cannot be used:", err)
		return 2
	}
	shown := rep
	if !*verbose {
		// The text lists failures and lost logs; passes are counted on the last line.
		c := *rep
		c.Scenarios = nil
		for _, s := range rep.Scenarios {
			if s.status() != StatusPass {
				c.Scenarios = append(c.Scenarios, s)
			}
		}
		shown = &c
	}
	var text bytes.Buffer
	shown.writeText(&text, rep.Requirements())
	if shown != rep {
		// The last line counts every log, not only those listed.
		t := strings.TrimSuffix(text.String(), "\n")
		t = t[:strings.LastIndex(t, "\n")+1] + rep.lastLine() + "\n"
		text.Reset()
		text.WriteString(t)
	}
	if *jsonOut == "-" {
		if err := rep.WriteJSON(stdout); err != nil {
			fmt.Fprintln(stderr, "conform: --json:", err)
			return 2
		}
	} else {
		stdout.Write(text.Bytes())
	}
	if *jsonOut != "" && *jsonOut != "-" {
		var b bytes.Buffer
		rep.WriteJSON(&b)
		if err := fileio.WriteAtomic(*jsonOut, b.Bytes()); err != nil {
			fmt.Fprintln(stderr, "conform: --json:", err)
			return 2
		}
	}
	if *junitOut != "" {
		var b bytes.Buffer
		rep.WriteJUnit(&b)
		if err := fileio.WriteAtomic(*junitOut, b.Bytes()); err != nil {
			fmt.Fprintln(stderr, "conform: --junit:", err)
			return 2
		}
	}
	interrupted := ctx.Err() != nil // before stop, which ends ctx
	stop()                          // the host is reaped before the exit code is decided
	if interrupted {
		fmt.Fprintln(stderr, "conform: interrupted")
		return interruptedExit(ctx, verdictOK(ctx, rep)) // ctx is done: 130 unless a failure was found
	}
	if rep.Interrupted || !rep.Conformant() {
		return 1
	}
	return 0
}
