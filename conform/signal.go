package conform

import "syscall"

// sigterm is the signal a job runner stops the conform command with.
var sigterm = syscall.SIGTERM
