package ledger

import (
	"os"
	"syscall"
)

// openShared opens the file at p for reading and lets others delete it or
// rename over it meanwhile (FILE_SHARE_DELETE), as every open does on
// Unix. os.Open does not share deletion on Windows, so a Put renaming an
// object over one a reader held open (or a Sweep removing it) failed with
// "Access is denied" (issue 41).
func openShared(p string) (*os.File, error) {
	name, err := syscall.UTF16PtrFromString(p)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: p, Err: err}
	}
	h, err := syscall.CreateFile(name, syscall.GENERIC_READ,
		syscall.FILE_SHARE_READ|syscall.FILE_SHARE_WRITE|syscall.FILE_SHARE_DELETE,
		nil, syscall.OPEN_EXISTING, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: p, Err: err}
	}
	return os.NewFile(uintptr(h), p), nil
}
