package conform

import "syscall"

// sigterm is the signal a job runner stops the conform command with.
var sigterm = syscall.SIGTERM

// ExitInterrupted is the exit code of a command interrupted (Ctrl-C, SIGTERM) before its
// work was done: 128+SIGINT, as a shell reports it, as simrun fuzz exits.
const ExitInterrupted = 130
