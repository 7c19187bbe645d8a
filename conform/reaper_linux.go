package conform

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER (linux/prctl.h), which the syscall
// package does not name.
const prSetChildSubreaper = 36

// becomeSubreaper makes this process the reaper of its orphaned descendants: a host's
// child that left the host's process group (setsid) and outlived the host is reparented
// here instead of to init, where reapOrphans finds it. It reports whether Linux allowed
// it.
func becomeSubreaper() bool {
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	return errno == 0
}

// reapOrphans ends every child this process still has once every host was closed and
// reaped: the descendants of hosts adopted as their subreaper (its own hosts are reaped
// by then). Each gets SIGTERM, then SIGKILL after grace, and is reaped; their own
// children, adopted in turn, likewise. Only pids found as children are waited for, never
// any child (-1), so no other wait is robbed of its status.
func reapOrphans(grace time.Duration) {
	self := os.Getpid()
	for round := 0; round < 16; round++ {
		kids := childrenOf(self)
		if len(kids) == 0 {
			return
		}
		for _, k := range kids {
			syscall.Kill(k, syscall.SIGTERM)
		}
		deadline := time.Now().Add(grace)
		left := kids
		for len(left) > 0 && time.Now().Before(deadline) {
			left = reaped(left, syscall.WNOHANG)
			if len(left) > 0 {
				time.Sleep(10 * time.Millisecond)
			}
		}
		for _, k := range left {
			syscall.Kill(k, syscall.SIGKILL)
		}
		reaped(left, 0)
	}
}

// reaped waits for each pid (with options) and returns those not reaped yet.
func reaped(pids []int, options int) []int {
	var left []int
	for _, pid := range pids {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(pid, &ws, options, nil)
		if got == 0 && err == nil {
			left = append(left, pid)
		}
	}
	return left
}

// childrenOf lists the processes whose parent is pid, from /proc.
func childrenOf(pid int) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []int
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid == pid {
			if k, err := strconv.Atoi(filepath.Base(filepath.Dir(d))); err == nil {
				kids = append(kids, k)
			}
		}
	}
	return kids
}
