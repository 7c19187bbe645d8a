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
	"github.com/twosettle/twosettle/engine/session"
	"github.com/twosettle/twosettle/engine/wire"
	"github.com/twosettle/twosettle/sessionlog"
)

// projectionLogMain is `conform projection --log FILE.jsonl [--view FILE.jsonl]`: it folds
// a recorded Session log with the reference projection (--log DIR --view DIR: every log
// of a directory, projectionLogDir). Without --view it prints the
// view after each event (a view file, the form --view reads); with --view it compares
// the implementer's recorded views, one line per event, and reports the first event
// where they differ. Exit 0 equal (or printed), 1 a difference, 2 bad usage or a
// malformed file (file:line). The files are read line by line, never whole
// (sessionlog.LogReader): printing streams (the views before a malformed line are
// printed, then its error), comparing judges both files before it compares them.
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
	if *viewPath == "" {
		if err := printViews(stdout, *logPath); err != nil {
			var out outputError
			if errors.As(err, &out) {
				fmt.Fprintln(stderr, "conform projection:", err)
			} else {
				fmt.Fprintln(stderr, logFileError(err))
			}
			return 2
		}
		return 0
	}
	events, d, ok, err := compareViewFiles(*logPath, *viewPath)
	if err != nil {
		fmt.Fprintln(stderr, logFileError(err))
		return 2
	}
	if ok {
		fmt.Fprintf(stdout, "%s: %d events, every view is the reference fold's\n", *logPath, events)
		return 0
	}
	fmt.Fprintf(stdout, "%s:%d: %s\n", *viewPath, d.ViewLine, d.Message)
	if d.Detail != "" {
		stdout.Write([]byte(d.Detail))
	}
	return 1
}

// printViews folds the log at path with the reference projection as it reads it, and
// prints the view after each event (writeViews): the memory is the fold's and one line's,
// neither the log's nor the output's. A malformed line ends it with its error, after the
// views of the events before it.
func printViews(w io.Writer, path string) error {
	r, err := sessionlog.OpenLog(path)
	if err != nil {
		return err
	}
	defer r.Close()
	return writeViewsFrom(w, r.Header().Inherited, r.Next)
}

// writeViewsFrom folds the events next returns (io.EOF after the last) with the reference
// projection and writes the view after each event as it goes, through a 64 KiB buffer:
// the memory is one view's, not the whole output's (each view holds every open card, so
// the output grows with the square of open asks). A write that fails is an outputError.
func writeViewsFrom(w io.Writer, inherited int, next func() (session.Event, error)) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	p := questions.NewProjection(inherited)
	var b []byte
	for {
		e, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if ferr := bw.Flush(); ferr != nil {
				return outputError{ferr}
			}
			return err
		}
		p.Apply(e)
		b = wire.AppendViewLineJSON(b[:0], wire.ViewLine{Seq: e.Seq, View: p.View()})
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return outputError{err}
		}
	}
	if err := bw.Flush(); err != nil {
		return outputError{err}
	}
	return nil
}

// outputError is a failed write of the output, told apart from a file that cannot be read.
type outputError struct{ err error }

func (e outputError) Error() string { return e.err.Error() }
func (e outputError) Unwrap() error { return e.err }

// compareViewFiles compares the view file at viewPath with the reference fold of the log
// at logPath, as CompareViews does, reading both line by line: a first pass judges both
// files whole (a malformed line anywhere is an error, reported when it is reached, before
// any difference) and counts their lines (countLines), a second folds and compares them
// in step (compareCounted), keeping only the fold and the last few events. events is the
// log's number of events.
func compareViewFiles(logPath, viewPath string) (events int, d ViewMismatch, ok bool, err error) {
	events, views, err := countLines(logPath, viewPath)
	if err != nil {
		return 0, d, false, err
	}
	d, ok, err = compareCounted(logPath, viewPath, events, views)
	return events, d, ok, err
}

// countLines judges a log and its view file line by line and counts their events and
// views.
func countLines(logPath, viewPath string) (events, views int, err error) {
	lr, err := sessionlog.OpenLog(logPath)
	if err != nil {
		return 0, 0, err
	}
	defer lr.Close()
	for {
		if _, err = lr.Next(); err == io.EOF {
			break
		} else if err != nil {
			return 0, 0, err
		}
		events++
	}
	vr, err := sessionlog.OpenViews(viewPath)
	if err != nil {
		return 0, 0, err
	}
	defer vr.Close()
	for {
		if _, err = vr.Next(); err == io.EOF {
			break
		} else if err != nil {
			return 0, 0, err
		}
		views++
	}
	return events, views, nil
}

// compareCounted is compareViewFiles' second pass.
func compareCounted(logPath, viewPath string, events, views int) (ViewMismatch, bool, error) {
	lr, err := sessionlog.OpenLog(logPath)
	if err != nil {
		return ViewMismatch{}, false, err
	}
	defer lr.Close()
	vr, err := sessionlog.OpenViews(viewPath)
	if err != nil {
		return ViewMismatch{}, false, err
	}
	defer vr.Close()
	return compareViewStreams(lr, vr, events, views)
}

// compareViewStreams is CompareViews over a log and a view file as they are read, events
// and views being their lengths (the first pass of compareViewFiles counted them).
func compareViewStreams(lr *sessionlog.LogReader, vr *sessionlog.ViewReader, events, views int) (ViewMismatch, bool, error) {
	p := questions.NewProjection(lr.Header().Inherited)
	var recent []session.Event // the last events, for the detail (viewDiff.describe shows 5)
	for i := 0; i < events; i++ {
		e, err := lr.Next()
		if err != nil {
			return ViewMismatch{}, false, err
		}
		p.Apply(e)
		if len(recent) == 5 {
			recent = append(recent[:0], recent[1:]...)
		}
		recent = append(recent, e)
		if i >= views {
			return ViewMismatch{ViewLine: views + 1, Message: "the view file ends after " + strconv.Itoa(views) + " views; the log has " + strconv.Itoa(events) + " events (no view for event #" + strconv.Itoa(e.Seq) + ")"}, false, nil
		}
		got, err := vr.Next()
		if err != nil {
			return ViewMismatch{}, false, err
		}
		if got.Seq != e.Seq {
			return ViewMismatch{ViewLine: i + 1, Message: "view for seq " + strconv.Itoa(got.Seq) + ", but event " + strconv.Itoa(i+1) + " of the log is #" + strconv.Itoa(e.Seq) + " (one view per event, in order)"}, false, nil
		}
		if want := p.View(); !sameView(got.View, want) {
			at := i
			window := &sessionlog.Log{Events: recent}
			vd := &viewDiff{Index: len(recent) - 1, Want: want, Got: got.View}
			return ViewMismatch{ViewLine: i + 1, Message: "the view after event #" + strconv.Itoa(e.Seq) + " (" + e.Type() + ") differs from the reference fold's",
				Detail: vd.describe(window, "recorded", func(int) string { return "line " + strconv.Itoa(at+2) + " of the log" })}, false, nil
		}
	}
	if views > events {
		return ViewMismatch{ViewLine: events + 1, Message: "the view file has " + strconv.Itoa(views) + " views; the log has only " + strconv.Itoa(events) + " events"}, false, nil
	}
	return ViewMismatch{}, true, nil
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
	// Every file is judged before any comparison is printed (a first pass over each, line
	// by line: compareViewFiles); only the fold of one log is held at a time.
	type pair struct {
		log, view     string
		events, views int
	}
	var pairs []pair
	for _, path := range logs {
		vp := filepath.Join(viewDir, filepath.Base(path))
		events, views, err := countLines(path, vp)
		if err != nil {
			fmt.Fprintln(stderr, logFileError(err))
			return 2
		}
		pairs = append(pairs, pair{path, vp, events, views})
	}
	differ, events := 0, 0
	for _, p := range pairs {
		d, ok, err := compareCounted(p.log, p.view, p.events, p.views)
		if err != nil {
			fmt.Fprintln(stderr, logFileError(err))
			return 2
		}
		events += p.events
		if ok {
			continue
		}
		differ++
		fmt.Fprintf(stdout, "%s:%d: %s\n", p.view, d.ViewLine, d.Message)
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
