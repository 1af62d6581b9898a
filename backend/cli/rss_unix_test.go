//go:build unix

package cli

import (
	"os"
	"syscall"
)

// peakRSS is the ended process's peak resident set (KB on Linux).
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
