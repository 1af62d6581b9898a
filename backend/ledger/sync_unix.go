//go:build unix

package ledger

import "os"

// syncPath makes the file or folder at p durable (fsync).
func syncPath(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
