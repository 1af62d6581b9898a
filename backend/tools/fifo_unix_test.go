//go:build unix

package tools

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"pilot/backend/projectroot"
)

// TestNonRegularFiles: read_file, patch_file and write_file refuse a FIFO
// and a socket with a sentence, grep and glob pass them by, and nothing
// waits. On the old code read_file on the FIFO never returned.
func TestNonRegularFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "a.txt"), "needle\n")
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("pipe", filepath.Join(dir, "pipelink")); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	root, err := projectroot.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	reg := New(Deps{Root: root, Env: []string{"PATH=/usr/bin:/bin"}})
	for _, p := range []string{"pipe", "pipelink", "sock"} {
		res := callBounded(t, reg, "read_file", ReadFileParams{Path: p})
		if !res.IsError || !strings.Contains(res.Output, "not a regular file") {
			t.Errorf("read_file %s: %+v", p, res)
		}
		res = callBounded(t, reg, "patch_file", PatchFileParams{Path: p, OldText: "x", NewText: "y"})
		if !res.IsError || !strings.Contains(res.Output, "not a regular file") {
			t.Errorf("patch_file %s: %+v", p, res)
		}
	}
	res := callBounded(t, reg, "read_file", ReadFileParams{Path: "pipe"})
	if !strings.Contains(res.Output, "named pipe (FIFO)") {
		t.Errorf("read_file pipe does not say what it is: %s", res.Output)
	}
	res = callBounded(t, reg, "grep", GrepParams{Pattern: "needle"})
	if res.IsError || !strings.Contains(res.Output, "a.txt:1: needle") {
		t.Errorf("grep: %+v", res)
	}
	res = callBounded(t, reg, "glob", GlobParams{Pattern: "*"})
	if res.IsError || !strings.Contains(res.Output, "a.txt") || strings.Contains(res.Output, "pipe") {
		t.Errorf("glob: %+v", res)
	}
}
