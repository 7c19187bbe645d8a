package conform

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/twosettle/twosettle/engine/questions"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/sessionlog"
)

// projectionLogMain is `conform projection --log FILE.jsonl [--view FILE.jsonl]`: it folds
// a recorded Session log with the reference projection (--log DIR --view DIR: every log
// of a directory, projectionLogDir). Without --view it prints the
// view after each event (a view file, the form --view reads); with --view it compares
// the implementer's recorded views, one line per event, and reports the first event
// where they differ. Exit 0 equal (or printed), 1 a difference, 2 bad usage or a
// malformed file (file:line).
func projectionLogMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform projection", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logPath := fs.String("log", "", "the Session log (JSON Lines, docs/PROTOCOL.md \"Session log files\"), or a directory of them (*.jsonl)")
	viewPath := fs.String("view", "", "your views of that log, one line per event, to compare with the reference fold (a directory for a directory of logs: the same file names)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conform projection: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *logPath == "" {
		fmt.Fprintln(stderr, "conform projection: --log FILE.jsonl is required")
		return 2
	}
	if fi, err := os.Stat(*logPath); err == nil && fi.IsDir() {
		return projectionLogDir(*logPath, *viewPath, stdout, stderr)
	}
	l, err := sessionlog.ReadFile(*logPath)
	if err != nil {
		fmt.Fprintln(stderr, logFileError(err))
		return 2
	}
	if *viewPath == "" {
		if err := writeViews(stdout, l); err != nil {
			fmt.Fprintln(stderr, "conform projection:", err)
			return 2
		}
		return 0
	}
	ref := sessionlog.Views(l)
	got, err := sessionlog.ReadViewFile(*viewPath)
	if err != nil {
		fmt.Fprintln(stderr, logFileError(err))
		return 2
	}
	d, ok := CompareViews(l, ref, got)
	if ok {
		fmt.Fprintf(stdout, "%s: %d events, every view is the reference fold's\n", *logPath, len(l.Events))
		return 0
	}
	fmt.Fprintf(stdout, "%s:%d: %s\n", *viewPath, d.ViewLine, d.Message)
	if d.Detail != "" {
		stdout.Write([]byte(d.Detail))
	}
	return 1
}

// writeViews folds l with the reference projection and writes the view after each event
// as it goes, through a 64 KiB buffer: the memory is one view's, not the whole output's
// (each view holds every open card, so the output grows with the square of open asks).
func writeViews(w io.Writer, l *sessionlog.Log) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	p := questions.NewProjection(l.Inherited)
	var b []byte
	for _, e := range l.Events {
		p.Apply(e)
		b = wire.AppendViewLineJSON(b[:0], wire.ViewLine{Seq: e.Seq, View: p.View()})
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// projectionLogDir is `conform projection --log DIR --view DIR`: every *.jsonl file of
// the log directory (in name order, not its subdirectories) is a Session log, compared
// with the view file of the same name in the view directory, as one file is; every log
// is compared, not only up to the first that differs, and a summary line ends the
// output. Exit 0 when every view is the reference fold's, 1 when a log's views differ, 2
// for bad usage, a missing view file or a malformed file (file:line), before any
// comparison is printed.
func projectionLogDir(logDir, viewDir string, stdout, stderr io.Writer) int {
	if viewDir == "" {
		fmt.Fprintf(stderr, "conform projection: --log %s is a directory: give --view DIR, the directory of your view files (one per log, the same name)\n", logDir)
		return 2
	}
	if fi, err := os.Stat(viewDir); err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "conform projection: --log is a directory, so --view must be one too: %s is not\n", viewDir)
		return 2
	}
	logs, err := logFilesIn(logDir)
	if err != nil {
		fmt.Fprintln(stderr, "conform projection:", err)
		return 2
	}
	type pair struct {
		path, viewPath string
		log            *sessionlog.Log
		views          []wire.ViewLine
	}
	var pairs []pair
	for _, path := range logs {
		l, err := sessionlog.ReadFile(path)
		if err != nil {
			fmt.Fprintln(stderr, logFileError(err))
			return 2
		}
		vp := filepath.Join(viewDir, filepath.Base(path))
		got, err := sessionlog.ReadViewFile(vp)
		if err != nil {
			fmt.Fprintln(stderr, logFileError(err))
			return 2
		}
		pairs = append(pairs, pair{path, vp, l, got})
	}
	differ, events := 0, 0
	for _, p := range pairs {
		events += len(p.log.Events)
		d, ok := CompareViews(p.log, sessionlog.Views(p.log), p.views)
		if ok {
			continue
		}
		differ++
		fmt.Fprintf(stdout, "%s:%d: %s\n", p.viewPath, d.ViewLine, d.Message)
		if d.Detail != "" {
			stdout.Write([]byte(d.Detail))
		}
	}
	if differ > 0 {
		fmt.Fprintf(stdout, "%d of %d logs (%d events) differ from the reference fold\n", differ, len(pairs), events)
		return 1
	}
	fmt.Fprintf(stdout, "%d logs, %d events: every view is the reference fold's\n", len(pairs), events)
	return 0
}

// logFileError is how a log or view file that cannot be used is reported: a malformed
// one as file:line: what is wrong (sessionlog.Error, for editors), one that cannot be read
// after "conform:" like conform's other errors.
func logFileError(err error) string {
	var bad *sessionlog.Error
	if errors.As(err, &bad) {
		return err.Error()
	}
	return "conform: " + err.Error()
}

// logFilesIn is the Session log files of directory dir: its *.jsonl files in name order
// (not its subdirectories'); none is an error.
func logFilesIn(dir string) ([]string, error) {
	logs, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(logs) == 0 {
		return nil, fmt.Errorf("no *.jsonl log file in %s", dir)
	}
	return logs, nil // filepath.Glob sorts by name
}

// ViewMismatch is the first place a recorded view file departs from the reference fold.
type ViewMismatch struct {
	ViewLine int    // the line of the view file (1-based)
	Message  string // one line
	Detail   string // the events before it and both views, for people
}

// CompareViews compares got (a view file's lines) with ref (the reference views of l,
// one per event) line by line: each line's seq must be its event's and its view the
// reference's, and there must be one line per event.
func CompareViews(l *sessionlog.Log, ref, got []wire.ViewLine) (ViewMismatch, bool) {
	for i := range ref {
		if i >= len(got) {
			return ViewMismatch{ViewLine: len(got) + 1, Message: "the view file ends after " + strconv.Itoa(len(got)) + " views; the log has " + strconv.Itoa(len(ref)) + " events (no view for event #" + strconv.Itoa(ref[i].Seq) + ")"}, false
		}
		if got[i].Seq != ref[i].Seq {
			return ViewMismatch{ViewLine: i + 1, Message: "view for seq " + strconv.Itoa(got[i].Seq) + ", but event " + strconv.Itoa(i+1) + " of the log is #" + strconv.Itoa(ref[i].Seq) + " (one view per event, in order)"}, false
		}
		if !sameView(got[i].View, ref[i].View) {
			d := &viewDiff{Index: i, Want: ref[i].View, Got: got[i].View}
			e := l.Events[i]
			return ViewMismatch{ViewLine: i + 1, Message: "the view after event #" + strconv.Itoa(e.Seq) + " (" + e.Type() + ") differs from the reference fold's",
				Detail: d.describe(l, "recorded", func(i int) string { return "line " + strconv.Itoa(i+2) + " of the log" })}, false
		}
	}
	if len(got) > len(ref) {
		return ViewMismatch{ViewLine: len(ref) + 1, Message: "the view file has " + strconv.Itoa(len(got)) + " views; the log has only " + strconv.Itoa(len(ref)) + " events"}, false
	}
	return ViewMismatch{}, true
}
