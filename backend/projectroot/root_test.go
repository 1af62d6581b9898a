package projectroot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// project makes a root with files, folders and links pointing in and out.
func project(t *testing.T) (*Root, string) {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "proj")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{dir + "/src/sub", dir + "/.git/info", outside + "/deep"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{dir + "/main.go", dir + "/src/a.go", outside + "/secret.txt"} {
		if err := os.WriteFile(f, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		dir + "/out":           outside,                 // folder link leading out
		dir + "/src/up":        "../..",                 // relative link to the root's parent
		dir + "/secret":        outside + "/secret.txt", // file link leading out
		dir + "/dangling":      outside + "/new.txt",    // link to a file that does not exist yet
		dir + "/in":            "src",                   // link staying inside
		dir + "/src/sub/root":  "../..",                 // link to the root itself
		dir + "/loop1":         "loop2",
		dir + "/loop2":         "loop1",
		dir + "/gitlink":       ".git",
		dir + "/src/sub/abs":   dir + "/main.go", // absolute link inside
		dir + "/src/sub/rel2o": "../../../outside",
	}
	for l, target := range links {
		if err := os.Symlink(target, l); err != nil {
			t.Fatal(err)
		}
	}
	r, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, outside
}

func TestResolve(t *testing.T) {
	t.Parallel()
	r, outside := project(t)
	root := r.Dir()
	tests := []struct {
		in      string
		rel     string // expected Rel when allowed
		wantErr error
	}{
		{"", ".", nil},
		{".", ".", nil},
		{"main.go", "main.go", nil},
		{"./src/../main.go", "main.go", nil},
		{"src/a.go", "src/a.go", nil},
		{"new/dir/file.txt", "new/dir/file.txt", nil},
		{root + "/src/a.go", "src/a.go", nil},
		{root, ".", nil},
		{"in/a.go", "src/a.go", nil},
		{"src/sub/root/main.go", "main.go", nil},
		{"src/sub/abs", "", ErrOutside},           // an absolute link is not followed, even inside
		{"../proj/main.go", "", ErrOutside},       // `..` is taken by name: out of the root
		{"src/\u2025/x", "src/\u2025/x", nil},     // two-dot leader is just a name
		{"\uff0e\uff0e/x", "\uff0e\uff0e/x", nil}, // full-width dots too
		{"..\u200b/x", "..\u200b/x", nil},
		{"..", "", ErrOutside},
		{"../outside/secret.txt", "", ErrOutside},
		{"src/../../outside", "", ErrOutside},
		{"/etc/passwd", "", ErrOutside},
		{outside + "/secret.txt", "", ErrOutside},
		{root + "/../outside", "", ErrOutside},
		{"out/secret.txt", "", ErrOutside},
		{"out/newfile", "", ErrOutside},
		{"out/deep/new/dir/file", "", ErrOutside},
		{"secret", "", ErrOutside},
		{"dangling", "", ErrOutside},
		{"src/up/outside/secret.txt", "", ErrOutside},
		{"src/up", "", ErrOutside},
		{"src/sub/rel2o/x", "", ErrOutside},
		{"loop1", "", ErrInvalid},
		{"a\x00b", "", ErrInvalid},
		{strings.Repeat("a/", 3000), "", ErrInvalid},
		{strings.Repeat("n", 300), "", ErrInvalid},
	}
	for _, tt := range tests {
		// ResolveWrite opens the folder through the root and asks the
		// kernel where it is; the root itself is only for Resolve.
		resolve := r.ResolveWrite
		if tt.rel == "." {
			resolve = r.Resolve
		}
		got, err := resolve(tt.in)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Resolve(%q) = %+v, %v; want %v", tt.in, got, err, tt.wantErr)
			}
			if errors.Is(err, ErrOutside) && !strings.Contains(err.Error(), root) {
				t.Errorf("Resolve(%q): message %q does not name the root", tt.in, err)
			}
			continue
		}
		if err != nil || got.Rel != tt.rel || got.Abs != filepath.Join(root, tt.rel) {
			t.Errorf("Resolve(%q) = %+v, %v; want rel %q", tt.in, got, err, tt.rel)
		}
	}
}

func TestResolveWrite(t *testing.T) {
	t.Parallel()
	r, _ := project(t)
	for _, p := range []string{".git/config", ".git", ".GIT/hooks/pre-commit", "gitlink/config", "src/../.git/x", "", "."} {
		if _, err := r.ResolveWrite(p); err == nil {
			t.Errorf("ResolveWrite(%q) allowed", p)
		}
	}
	if _, err := r.ResolveWrite(".gitignore"); err != nil {
		t.Errorf("ResolveWrite(.gitignore): %v", err)
	}
	// A link created after the root was opened (by a command, say) is seen.
	if err := os.Symlink("/", filepath.Join(r.Dir(), "later")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ResolveWrite("later/tmp/x"); !errors.Is(err, ErrOutside) {
		t.Errorf("link created later: %v", err)
	}
}
