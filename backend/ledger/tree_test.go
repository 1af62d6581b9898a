package ledger

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/projectroot"
)

// writeFiles creates files (path -> content) below dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newTestTrees returns a project root and Trees (with its Blobs) under a
// PILOT_HOME of its own.
func newTestTrees(t testing.TB, home string, limits Limits) (*Trees, *Blobs) {
	t.Helper()
	b, err := OpenBlobs(filepath.Join(home, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	trees := NewTrees(b, filepath.Join(home, "trees"), limits)
	t.Cleanup(trees.Close)
	return trees, b
}

func openRoot(t testing.TB, dir string) *projectroot.Root {
	t.Helper()
	r, err := projectroot.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// runCommand takes a checkpoint around fn, like around a run_bash.
func runCommand(t testing.TB, trees *Trees, root *projectroot.Root, fn func()) []Effect {
	t.Helper()
	ctx := context.Background()
	s, err := trees.Before(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	fn()
	effects, err := s.After(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return effects
}

func TestTreesCommandEffects(t *testing.T) {
	t.Parallel()
	proj, home, outside := t.TempDir(), t.TempDir(), t.TempDir()
	limits := Limits{MaxFileBytes: 1000, MaxFiles: 100}
	writeFiles(t, proj, map[string]string{
		".gitignore":       "ignored/\n*.log\n",
		".pilotignore":     "secret/\n",
		"a.txt":            "one\ntwo\nthree\n",
		"b.txt":            "to be removed\n",
		"c.txt":            "to be moved\n",
		"run.sh":           "echo hi\n",
		"big.bin":          strings.Repeat("x", 2000),
		"src/keep.go":      "package src\n",
		"ignored/old.txt":  "ignored\n",
		".git/config":      "[core]\n",
		"secret/token.txt": "s3cret\n",
	})
	writeFiles(t, outside, map[string]string{"target.txt": "outside content, never to be read"})
	trees, blobs := newTestTrees(t, home, limits)
	root := openRoot(t, proj)
	// A first command with no effect: the baseline.
	if effects := runCommand(t, trees, root, func() {}); len(effects) != 0 {
		t.Fatalf("baseline effects: %+v", effects)
	}
	before := map[string][]byte{}
	for _, p := range []string{"a.txt", "b.txt", "c.txt", "run.sh"} {
		before[p], _ = os.ReadFile(filepath.Join(proj, p))
	}
	effects := runCommand(t, trees, root, func() {
		p := func(rel string) string { return filepath.Join(proj, rel) }
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		// sed -i: a new file renamed over the old one.
		must(os.WriteFile(p("a.txt.sed"), []byte("one\n2\nthree\n"), 0o644))
		must(os.Rename(p("a.txt.sed"), p("a.txt")))
		must(os.Remove(p("b.txt")))
		must(os.Rename(p("c.txt"), p("src/moved.txt")))
		must(os.WriteFile(p("new.txt"), []byte("new\n"), 0o644))
		must(os.Chmod(p("run.sh"), 0o755))
		must(os.Symlink(filepath.Join(outside, "target.txt"), p("link")))
		must(os.WriteFile(p("big.bin"), []byte(strings.Repeat("y", 2000)), 0o644))
		must(os.WriteFile(p("ignored/new.txt"), []byte("x"), 0o644))
		must(os.WriteFile(p("build.log"), []byte("x"), 0o644))
		must(os.WriteFile(p("secret/other.txt"), []byte("x"), 0o644))
		must(os.WriteFile(p(".git/HEAD"), []byte("ref: x\n"), 0o644))
	})
	var got []string
	byPath := map[string]Effect{}
	for _, e := range effects {
		got = append(got, fmt.Sprintf("%s %s %d", e.Op, e.Path, e.Skipped))
		byPath[e.Path] = e
	}
	// The files in .git folders and the ignored ones are listed (Skipped)
	// by their stat.
	want := []string{"created .git/HEAD 1", "modified a.txt 0", "deleted b.txt 0", "modified big.bin 0", "created build.log 2", "deleted c.txt 0",
		"created ignored/new.txt 2", "created link 0", "created new.txt 0", "modified run.sh 0", "created secret/other.txt 2", "created src/moved.txt 0"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("effects:\n got %v\nwant %v", got, want)
	}
	for _, e := range effects {
		if e.Skipped != projectroot.NotSkipped && (e.After.Kept || !e.After.Exists() || blobs.Has(e.After.Hash)) {
			t.Errorf("%s: %+v, want listed by its stat, its content not kept", e.Path, e.After)
		}
	}
	for _, e := range effects {
		if e.Before.Exists() && e.Before.Kept {
			data, err := blobs.Get(e.Before.Hash)
			if err != nil {
				t.Errorf("%s: Before content: %v", e.Path, err)
			} else if want, ok := before[e.Path]; ok && !bytes.Equal(data, want) {
				t.Errorf("%s: Before content %q, want %q", e.Path, data, want)
			}
		}
		if e.After.Exists() && e.After.Kept && !blobs.Has(e.After.Hash) {
			t.Errorf("%s: After content not stored", e.Path)
		}
	}
	if e := byPath["link"]; e.After.Mode&fs.ModeSymlink == 0 || !e.After.Kept {
		t.Errorf("link: %+v, want a kept symbolic link", e.After)
	} else if data, _ := blobs.Get(e.After.Hash); string(data) != filepath.Join(outside, "target.txt") {
		t.Errorf("link content %q, want its target", data)
	}
	if e := byPath["big.bin"]; e.Before.Kept || e.After.Kept || !e.Before.Exists() || e.Before.Same(e.After) || e.After.Size != 2000 {
		t.Errorf("big.bin: %+v -> %+v, want not kept, changed", e.Before, e.After)
	}
	if e := byPath["run.sh"]; e.Before.Mode != 0o644 || e.After.Mode != 0o755 || e.Before.Hash != e.After.Hash {
		t.Errorf("run.sh: %+v -> %+v, want a mode change only", e.Before, e.After)
	}
	if e := byPath["a.txt"]; e.After.Size != int64(len("one\n2\nthree\n")) {
		t.Errorf("a.txt after: %+v", e.After)
	}
	// The manifest on disk holds the project's files only: the listed ones
	// are lstat'ed again by every scan.
	trees.saves.Wait()
	saved := loadManifest(trees.project(root.Dir()).path, root.Dir())
	if _, ok := saved.files["a.txt"]; !ok || len(saved.files) == 0 {
		t.Errorf("the manifest lacks a.txt: %v", files(saved))
	}
	for rel := range saved.files {
		if strings.HasPrefix(rel, ".git/") || strings.HasSuffix(rel, ".log") || strings.HasPrefix(rel, "ignored/") || strings.HasPrefix(rel, "secret/") {
			t.Errorf("the manifest holds %s, which the ledger only lists", rel)
		}
	}
	// Nothing was written into the project.
	var extra []string
	_ = filepath.WalkDir(proj, func(p string, d fs.DirEntry, err error) error {
		if strings.Contains(d.Name(), ".tmp") || strings.HasSuffix(d.Name(), ".manifest") || len(d.Name()) == 64 {
			extra = append(extra, p)
		}
		return nil
	})
	if len(extra) > 0 {
		t.Errorf("files written into the project: %v", extra)
	}
}

// A change made while Pilot was not running (no scan) is found by the next
// Before of a new Trees on the same folder, and its content is the Before
// of the next command.
func TestTreesRestart(t *testing.T) {
	t.Parallel()
	proj, home := t.TempDir(), t.TempDir()
	writeFiles(t, proj, map[string]string{"a.txt": "v1\n", "b.txt": "same\n"})
	trees, _ := newTestTrees(t, home, DefaultLimits)
	runCommand(t, trees, openRoot(t, proj), func() {})
	trees.Close() // Pilot quits

	writeFiles(t, proj, map[string]string{"a.txt": "v2, edited by the user\n"})

	trees2, blobs2 := newTestTrees(t, home, DefaultLimits)
	effects := runCommand(t, trees2, openRoot(t, proj), func() {
		writeFiles(t, proj, map[string]string{"a.txt": "v3\n"})
	})
	if len(effects) != 1 || effects[0].Path != "a.txt" || effects[0].Op != Modified {
		t.Fatalf("effects %+v, want a.txt modified", effects)
	}
	got, err := blobs2.Get(effects[0].Before.Hash)
	if err != nil || string(got) != "v2, edited by the user\n" {
		t.Errorf("Before content %q, %v; want the user's edit", got, err)
	}
	trees2.Close() // the last scan is written
	live, err := trees2.Live()
	if err != nil || !live[Hash([]byte("v3\n"))] || !live[Hash([]byte("same\n"))] || live[Hash([]byte("v1\n"))] {
		t.Errorf("Live = %d hashes, %v; want the last scan's", len(live), err)
	}
}

// A file rewritten with the same size within the timestamp granularity
// (racily clean) is still seen as changed.
func TestTreesRacyClean(t *testing.T) {
	t.Parallel()
	proj, home := t.TempDir(), t.TempDir()
	writeFiles(t, proj, map[string]string{"a.txt": "aaaa"})
	trees, _ := newTestTrees(t, home, DefaultLimits)
	root := openRoot(t, proj)
	runCommand(t, trees, root, func() {})
	fi, _ := os.Stat(filepath.Join(proj, "a.txt"))
	effects := runCommand(t, trees, root, func() {
		p := filepath.Join(proj, "a.txt")
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("bbbb")
		f.Close()
		// Put the stat back as it was, as a write in the same tick would.
		os.Chtimes(p, fi.ModTime(), fi.ModTime())
	})
	if len(effects) != 1 || effects[0].Op != Modified {
		t.Errorf("effects %+v, want a.txt modified", effects)
	}
}

func TestManifestRoundTrip(t *testing.T) {
	t.Parallel()
	m := &manifest{root: "/p", scanned: 42, files: map[string]entry{
		"a":     {size: 1, mtime: 2, ctime: 3, ino: 4, mode: 0o644, kept: true, hash: [32]byte{1}},
		"b/l":   {size: 5, mtime: -1, mode: fs.ModeSymlink | 0o777, hash: [32]byte{2}},
		"c/d/e": {},
	}}
	data := m.marshal()
	got, err := unmarshalManifest(data)
	if err != nil || got.root != m.root || got.scanned != m.scanned || len(got.files) != 3 {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	for k, v := range m.files {
		if got.files[k] != v {
			t.Errorf("%s: %+v, want %+v", k, got.files[k], v)
		}
	}
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 1
		if _, err := unmarshalManifest(bad); err == nil {
			t.Fatalf("a flipped byte at %d went unnoticed", i)
		}
	}
	if _, err := unmarshalManifest(data[:len(data)/2]); err == nil {
		t.Error("a truncated manifest went unnoticed")
	}
}
