package conform

import (
	"io"
	"os"
)

// Command is the conform command as cmd/conform runs it: Main with the process's own
// stdin, stdout and stderr, and env added to every host's environment. It also makes the
// process the subreaper of its descendants where Linux allows it (PR_SET_CHILD_SUBREAPER),
// so that a host's child that escaped the host's process group (setsid) is adopted here
// rather than by init, and ends it once Main has closed and reaped every host: no host
// and none of its children outlive the command (docs/PROTOCOL.md, "A host that
// misbehaves"). Not in Main: the tests and simrun call Main inside their own process.
func Command(args []string, env []string) int {
	return command(args, os.Stdin, os.Stdout, os.Stderr, env)
}

func command(args []string, stdin io.Reader, stdout, stderr io.Writer, env []string) int {
	adopt := len(args) == 0 || (args[0] != "refhost" && args[0] != "refclient")
	if adopt {
		adopt = becomeSubreaper()
	}
	code := Main(args, stdin, stdout, stderr, env)
	if adopt {
		reapOrphans(DefaultKillGrace)
	}
	return code
}
