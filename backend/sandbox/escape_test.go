package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkConfined fails when p resolved to somewhere that, followed by the
// kernel, is outside the root.
func checkConfined(t *testing.T, r *Root, p string) {
	t.Helper()
	got, err := r.Resolve(p)
	if err != nil {
		var pe *PathError
		if !errors.As(err, &pe) {
			t.Fatalf("Resolve(%q): error of type %T: %v", p, err, err)
		}
		return
	}
	if !r.contains(got.Abs) {
		t.Fatalf("Resolve(%q) = %s, outside %s", p, got.Abs, r.Dir())
	}
	// Whatever exists of the result, the kernel must place inside too.
	for cur := got.Abs; ; cur = filepath.Dir(cur) {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			if real != r.Dir() && !strings.HasPrefix(real, r.Dir()+"/") {
				t.Fatalf("Resolve(%q) = %s, really %s: outside %s", p, got.Abs, real, r.Dir())
			}
			return
		}
		if !errors.Is(err, fs.ErrNotExist) && !strings.Contains(err.Error(), "not a directory") {
			return
		}
	}
}

// TestEscapesGenerated tries a few thousand combinations of ways out.
func TestEscapesGenerated(t *testing.T) {
	t.Parallel()
	r, outside := project(t)
	root := r.Dir()
	starts := []string{"", "./", "src/", "src/sub/", "in/", "out/", "src/up/", "src/sub/root/", root + "/", "/", outside + "/", "//", "new/"}
	middles := []string{"..", "../..", "../../..", strings.Repeat("../", 40), "src/..", ".", "./..", "\u2025", "\uff0e\uff0e", "．", "..\u200b", "...", ". .", "..%2f", "%2e%2e", "..\\..", "out", "secret", "dangling", "src/up", "loop1", "gitlink"}
	ends := []string{"", "/", "/outside/secret.txt", "/etc/passwd", "/proj/main.go", "/newfile", "/a/b/c", "/" + strings.Repeat("x", 250), "/\x00", "/..", "/secret.txt"}
	n := 0
	for _, s := range starts {
		for _, m := range middles {
			for _, e := range ends {
				checkConfined(t, r, s+m+e)
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d attempts", n)
	}
	if _, err := r.Resolve(outside); !errors.Is(err, ErrOutside) {
		t.Fatalf("outside folder resolved: %v", err)
	}
}

func FuzzResolve(f *testing.F) {
	for _, s := range []string{"", "..", "../outside/secret.txt", "out/x", "src/up/outside", "/etc/passwd", "a\x00b", "\u2025/x", "src/sub/root/../..", strings.Repeat("../", 100), "loop1/x", "dangling"} {
		f.Add(s)
	}
	base := f.TempDir()
	dir := filepath.Join(base, "proj")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{dir + "/src/sub", outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	for l, target := range map[string]string{dir + "/out": outside, dir + "/src/up": "../..", dir + "/dangling": outside + "/new", dir + "/src/sub/root": "../..", dir + "/loop1": "loop1"} {
		if err := os.Symlink(target, l); err != nil {
			f.Fatal(err)
		}
	}
	r, err := New(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		checkConfined(t, r, p)
	})
}
