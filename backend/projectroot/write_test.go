package projectroot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestResolveAbsolute: an absolute path inside the root, in the
// platform's own form (backslashes on Windows), is the file it names, and
// a new file's is missing, not outside: the agent checks a proposed
// change's file by its absolute path before writing it, and on Windows
// every new file was "changed on disk" (issue 41).
func TestResolveAbsolute(t *testing.T) {
	t.Parallel()
	r := plainProject(t)
	for _, tc := range []struct{ rel, want string }{
		{"main.go", "main.go"},
		{"src/a.go", "src/a.go"},
		{"new/dir/notes.txt", "new/dir/notes.txt"},
		{".", "."},
	} {
		abs := filepath.Join(r.Dir(), filepath.FromSlash(tc.rel))
		p, err := r.Resolve(abs)
		if err != nil || p.Rel != tc.want || p.Abs != abs {
			t.Errorf("Resolve(%q) = %+v, %v; want Rel %q", abs, p, err, tc.want)
		}
	}
	if _, err := r.ReadFile(filepath.Join(r.Dir(), "src", "a.go"), 100); err != nil {
		t.Errorf("ReadFile of an absolute path inside: %v", err)
	}
	if _, err := r.ReadFile(filepath.Join(r.Dir(), "new", "notes.txt"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a new file's absolute path: %v, want a missing file", err)
	}
	if _, err := r.Resolve(filepath.Join(filepath.Dir(r.Dir()), "other.txt")); !errors.Is(err, ErrOutside) {
		t.Errorf("Resolve of a path beside the root: %v, want ErrOutside", err)
	}
}

// TestFileOnWay: a missing folder on the way is not a file there (Windows
// gives both the same error, so write_file into a new folder was refused
// as "a folder on its way is a file", issue 41).
func TestFileOnWay(t *testing.T) {
	t.Parallel()
	r := plainProject(t)
	onWay := map[string]bool{
		"new.txt":           false,
		"new/dir/notes.txt": false,
		"src/new/notes.txt": false,
		"main.go/x":         true,
		"src/a.go/sub/x":    true,
	}
	for rel, want := range onWay {
		if got := FileOnWay(r, rel); got != want {
			t.Errorf("FileOnWay(%q) = %v, want %v", rel, got, want)
		}
	}
}

// plainProject is a root over real files without links, which every
// platform can make (Wine too): a file, a folder and a file in it.
func plainProject(t *testing.T) *Root {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(dir, "main.go"), filepath.Join(src, "a.go")} {
		if err := os.WriteFile(f, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() }) // Windows deletes no folder held open
	return r
}
