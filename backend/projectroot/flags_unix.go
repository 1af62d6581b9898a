//go:build unix

package projectroot

import "syscall"

// oDirectory makes an open fail unless the path is a folder.
const oDirectory = syscall.O_DIRECTORY

// ReadFd reads from a descriptor Entry.OpenFd gave (read(2), again when a
// signal interrupts it).
func ReadFd(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, b)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// CloseFd closes a descriptor Entry.OpenFd gave.
func CloseFd(fd int) error { return syscall.Close(fd) }
