// Package fileio is how the commands touch files: every input is read from a regular
// file through a size limit (ReadLimited, or OpenLimited for a reader that judges it as
// it goes: no /dev/zero exhausting memory, no FIFO blocking forever, no 50 MB file read
// whole before a 1 MiB limit refuses it), and every
// output is written atomically (WriteAtomic: a temporary file in the same directory,
// mode 0644, fsynced, renamed into place, removed on every error path), after its
// location was checked before any long work started (CheckDir, CheckFile). Only a
// regular file is ever replaced: a symbolic link's target is written (the link stays), a
// character device, a named pipe or a descriptor (/dev/null, a FIFO, /dev/stdout) is
// written through, a directory, a socket or a FIFO with no reader is refused, and a
// write that fails (/dev/full) is an error.
//
// It imports only the standard library; the engine never uses it (the engine does no
// I/O), the commands and the packages that write their files (golden, explore, mutants,
// conform) do.
package fileio
