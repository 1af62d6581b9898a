//go:build !windows

package ownerfile

import (
	"os"
	"testing"
)

// openToOthers lets every user write path.
func openToOthers(t *testing.T, path string) {
	t.Helper()
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
}
