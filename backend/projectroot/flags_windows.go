package projectroot

import (
	"os"
	"syscall"
)

// oDirectory: Windows has no such flag; a folder opened as a file fails
// at its first read instead.
const oDirectory = 0

// dupFile gives a handle of f's open file that outlives f, as an int
// (os.NewFile takes it back).
func dupFile(f *os.File) (int, error) {
	self, err := syscall.GetCurrentProcess()
	if err != nil {
		return -1, err
	}
	var h syscall.Handle
	if err := syscall.DuplicateHandle(self, syscall.Handle(f.Fd()), self, &h, 0, false, syscall.DUPLICATE_SAME_ACCESS); err != nil {
		return -1, err
	}
	return int(h), nil
}

// ReadFd reads from a handle Entry.OpenFd gave.
func ReadFd(fd int, b []byte) (int, error) { return syscall.Read(syscall.Handle(fd), b) }

// CloseFd closes a handle Entry.OpenFd gave.
func CloseFd(fd int) error { return syscall.CloseHandle(syscall.Handle(fd)) }
