//go:build !windows

package ownerfile

import (
	"fmt"
	"os"
)

// Restrict makes path readable and writable by its owner only (mode 0600).
func Restrict(path string) error { return os.Chmod(path, 0o600) }

// Check returns an error, saying what to do, when users other than path's
// owner can change it (its group or others have write permission).
func Check(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return refusal(path, "other users (its mode is "+fi.Mode().Perm().String()+")", fmt.Sprintf("make it private with chmod 600 %s", path))
	}
	return nil
}
