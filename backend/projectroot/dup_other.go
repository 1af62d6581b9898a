//go:build unix && !linux

package projectroot

import (
	"os"
	"syscall"
)

// dupFile gives a descriptor of f's open file that outlives f.
func dupFile(f *os.File) (int, error) { return syscall.Dup(int(f.Fd())) }
