package projectroot

import (
	"os"
	"path/filepath"
	"testing"
)

// plainProject is a root over real files without links, which every
// platform can make (Wine too): a file, a folder and a file in it.
func plainProject(t *testing.T) *Root {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"main.go", "src/a.go"} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f)), []byte("x\n"), 0o644); err != nil {
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

// TestFileOnWay: a missing folder on the way is not a file there (Windows
// gives both the same error, so write_file into a new folder was refused
// as "a folder on its way is a file", issue 41).
func TestFileOnWay(t *testing.T) {
	t.Parallel()
	r := plainProject(t)
	for _, tc := range []struct {
		rel  string
		want bool
	}{
		{"new.txt", false},
		{"new/dir/notes.txt", false},
		{"src/new/notes.txt", false},
		{"main.go/x", true},
		{"src/a.go/sub/x", true},
	} {
		if got := FileOnWay(r, tc.rel); got != tc.want {
			t.Errorf("FileOnWay(%q) = %v, want %v", tc.rel, got, tc.want)
		}
	}
}
