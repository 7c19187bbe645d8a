//go:build !linux

package conform

import "time"

// becomeSubreaper: only Linux lets a process adopt its orphaned descendants.
func becomeSubreaper() bool { return false }

func reapOrphans(time.Duration) {}
