package ledger

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A named pipe is not a project file: it is neither reported nor opened
// (opening it would block the scan).
func TestTreesSkipNamedPipe(t *testing.T) {
	t.Parallel()
	proj, home := t.TempDir(), t.TempDir()
	writeFiles(t, proj, map[string]string{"a.txt": "a\n"})
	trees, _ := newTestTrees(t, home, DefaultLimits)
	effects := runCommand(t, trees, openRoot(t, proj), func() {
		if err := syscall.Mkfifo(filepath.Join(proj, "pipe"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if len(effects) != 0 {
		t.Errorf("effects %+v, want none", effects)
	}
}
