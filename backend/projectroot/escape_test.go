package projectroot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// checkConfined fails when anything done with p through the root (open,
// list, walk, write) reaches outside it: an opened file the kernel places
// outside, a listing or walk showing the outside folder's secret.txt, or a
// change below outside.
func checkConfined(t *testing.T, r *Root, p string) {
	t.Helper()
	if f, _, _, err := r.OpenRead(p); err == nil {
		real, rerr := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
		f.Close()
		if rerr == nil && !r.contains(real) {
			t.Fatalf("OpenRead(%q) opened %s, outside %s", p, real, r.Dir())
		}
	} else if errors.Is(err, ErrOutside) && !strings.Contains(err.Error(), r.Dir()) {
		t.Fatalf("OpenRead(%q): message %q does not name the root", p, err)
	}
	if l, err := r.ListDir(p); err == nil {
		for _, e := range l.Entries {
			if e.Name == "secret.txt" {
				t.Fatalf("ListDir(%q) shows the outside folder", p)
			}
		}
		_ = r.Walk(context.Background(), l.Dir, func(e Entry) {
			if e.Name == "secret.txt" {
				t.Errorf("Walk(%q) reached the outside folder: %s", p, e.Rel)
			}
		})
	}
	if w, err := r.ResolveWrite(p); err == nil && path.Base(w.Rel) != "secret.txt" {
		if _, err := r.MkdirAll(path.Dir(w.Rel)); err == nil {
			_ = r.WriteAtomic(w.Rel, []byte("x\n"), 0o644)
		}
	}
	outside := filepath.Join(filepath.Dir(r.Dir()), "outside")
	_ = filepath.WalkDir(outside, func(q string, d fs.DirEntry, err error) error {
		if err == nil && q != outside && q != outside+"/secret.txt" && q != outside+"/deep" {
			t.Fatalf("after %q, %s exists outside", p, q)
		}
		return nil
	})
	if fi, err := os.Lstat(outside + "/secret.txt"); err != nil || fi.Size() != 2 || !fi.ModTime().Equal(secretTime(t, outside)) {
		t.Fatalf("after %q, the outside secret.txt changed", p)
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

// FuzzResolve tries any path through OpenRead, ListDir, Walk and a write
// (ResolveWrite, MkdirAll, WriteAtomic): nothing outside the root may be
// opened, listed, created or changed (go test -fuzz FuzzResolve).
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"", "..", "../outside/secret.txt", "out/x", "src/up/outside", "/etc/passwd", "a\x00b", "\u2025/x", "src/sub/root/../..", strings.Repeat("../", 100), "loop1/x", "dangling"} {
		f.Add(s)
	}
	base := f.TempDir()
	dir := filepath.Join(base, "proj")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{dir + "/src/sub", outside + "/deep"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.WriteFile(outside+"/secret.txt", []byte("x\n"), 0o644); err != nil {
		f.Fatal(err)
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

var secretTimes sync.Map

// secretTime is the outside secret.txt's first seen modification time.
func secretTime(t *testing.T, outside string) time.Time {
	fi, err := os.Lstat(outside + "/secret.txt")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := secretTimes.LoadOrStore(outside, fi.ModTime())
	return v.(time.Time)
}
