package ledger

import "os"

// syncPath makes the file at p durable. Windows flushes only a handle
// opened for writing (FlushFileBuffers on a read-only one is "Access is
// denied", which broke every checkpoint), and has no flush of a folder:
// NTFS journals a folder's entries itself.
func syncPath(p string) error {
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() {
		return err
	}
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
