package projectroot

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// tree writes files (a trailing '/' makes a folder) under a new root.
func tree(t *testing.T, files map[string]string) *Root {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func walkAll(t *testing.T, r *Root, start string) []string {
	t.Helper()
	p, err := r.Resolve(start)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	if err := r.Walk(context.Background(), p, func(e Entry) {
		mu.Lock()
		got = append(got, e.Rel)
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got
}

func TestIgnoreRules(t *testing.T) {
	t.Parallel()
	r := tree(t, map[string]string{
		".gitignore":               "*.log\n/build/\nnode_modules/\n!keep.log\n# comment\ndocs/**/*.tmp\n\\#hash\nspace\\ \n",
		".git/info/exclude":        "secret.txt\n",
		".git/HEAD":                "ref",
		".pilotignore":             "generated/\n",
		"a.log":                    "",
		"keep.log":                 "",
		"build/out.bin":            "",
		"src/build/kept.go":        "", // /build/ is anchored to the root
		"node_modules/x/index.js":  "",
		"src/node_modules/y.js":    "",
		"docs/a/b/c.tmp":           "",
		"docs/c.tmp":               "",
		"docs/readme.md":           "",
		"#hash":                    "",
		"space ":                   "",
		"secret.txt":               "",
		"generated/g.go":           "",
		"src/.gitignore":           "*.gen.go\n!important.log\nlocal/\n",
		"src/x.gen.go":             "",
		"src/important.log":        "",
		"src/local/a.go":           "",
		"src/main.go":              "",
		"other/x.gen.go":           "", // src's rules do not apply here
		".github/workflows/ci.yml": "",
	})
	got := walkAll(t, r, ".")
	want := []string{".github/workflows/ci.yml", ".gitignore", ".pilotignore", "docs/readme.md", "keep.log", "other/x.gen.go", "src/.gitignore", "src/build/kept.go", "src/important.log", "src/main.go"}
	if !slices.Equal(got, want) {
		t.Errorf("walk:\n got %q\nwant %q", got, want)
	}
	// Starting below the root still applies the rules of the folders above.
	if got := walkAll(t, r, "src"); !slices.Equal(got, []string{"src/.gitignore", "src/build/kept.go", "src/important.log", "src/main.go"}) {
		t.Errorf("walk src: %q", got)
	}
	// Ignored files are still reachable by path.
	if _, err := r.Resolve("node_modules/x/index.js"); err != nil {
		t.Error(err)
	}
}

func TestListDir(t *testing.T) {
	t.Parallel()
	r := tree(t, map[string]string{
		".gitignore": "*.log\n",
		"b.go":       "package b",
		"a.log":      "",
		"zdir/":      "",
		"adir/x":     "",
		".git/HEAD":  "",
	})
	if err := os.Symlink("adir", filepath.Join(r.Dir(), "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(r.Dir(), "etc")); err != nil {
		t.Fatal(err)
	}
	l, err := r.ListDir("")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range l.Entries {
		names = append(names, e.Name)
	}
	if want := []string{"adir", "link", "zdir", ".gitignore", "b.go", "etc"}; !slices.Equal(names, want) {
		t.Errorf("entries %q, want %q", names, want)
	}
	if l.Ignored != 2 {
		t.Errorf("ignored = %d, want 2 (.git, a.log)", l.Ignored)
	}
	if e := l.Entries[1]; !e.IsLink || !e.IsDir || e.Target != "adir" {
		t.Errorf("link entry %+v", e)
	}
	if e := l.Entries[5]; !e.IsLink || e.IsDir {
		t.Errorf("a link leading out is not followed: %+v", e)
	}
	if got := l.Entries[4].Size; got != int64(len("package b")) {
		t.Errorf("size of b.go = %d", got)
	}

	// ListNames: the same entries by name, in no order; a link to a folder
	// inside the root is a folder, one leading out is not followed.
	n, err := r.ListNames("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"folders", n.Dirs, []string{"adir", "link", "zdir"}},
		{"files", n.Files, []string{".gitignore", "b.go", "etc"}},
		{"links", n.Links, []string{"etc", "link"}},
	} {
		if got := slices.Sorted(slices.Values(c.got)); !slices.Equal(got, c.want) {
			t.Errorf("ListNames %s = %q, want %q", c.what, got, c.want)
		}
	}
	if n.Ignored != 2 || n.Dir.Rel != "." {
		t.Errorf("ListNames: ignored %d, dir %+v", n.Ignored, n.Dir)
	}
	for _, bad := range []string{"b.go", "missing", "../"} {
		if _, err := r.ListDir(bad); err == nil {
			t.Errorf("ListDir(%q) succeeded", bad)
		}
		if _, err := r.ListNames(bad); err == nil {
			t.Errorf("ListNames(%q) succeeded", bad)
		}
	}
}

func TestWalkCancel(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 200 {
		files[filepath.Join("d", strings.Repeat("x", i%7+1), "f"+string(rune('a'+i%26))+".txt")] = ""
	}
	r := tree(t, files)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p, _ := r.Resolve(".")
	if err := r.Walk(ctx, p, func(Entry) {}); err == nil {
		t.Fatal("cancelled walk returned nil")
	}
}

// TestListDirBig lists a folder big enough to be read on every CPU.
func TestListDirBig(t *testing.T) {
	t.Parallel()
	files := map[string]string{".gitignore": "*.log\n", "zdir/x": "", "adir/": ""}
	var want []string
	for i := range parallelMin + 500 {
		name := fmt.Sprintf("f%05d.txt", i)
		files[name] = strings.Repeat("x", i%7)
		want = append(want, name)
		files[fmt.Sprintf("f%05d.log", i)] = ""
	}
	r := tree(t, files)
	if err := os.Symlink("zdir", filepath.Join(r.Dir(), "link")); err != nil {
		t.Fatal(err)
	}
	want = append([]string{"adir", "link", "zdir", ".gitignore"}, want...)
	l, err := r.ListDir("")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range l.Entries {
		names = append(names, e.Name)
		if n, ok := strings.CutPrefix(e.Name, "f"); ok {
			var i int
			fmt.Sscanf(n, "%05d", &i)
			if e.Size != int64(i%7) || e.Path != e.Name || e.IsDir || e.ModTime.IsZero() {
				t.Fatalf("entry %+v", e)
			}
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("%d entries, want %d: %q...", len(names), len(want), names[:min(8, len(names))])
	}
	if l.Ignored != parallelMin+500 {
		t.Errorf("ignored = %d, want %d", l.Ignored, parallelMin+500)
	}
	if e := l.Entries[1]; !e.IsLink || !e.IsDir || e.Target != "zdir" {
		t.Errorf("link entry %+v", e)
	}
}

func TestJoinName(t *testing.T) {
	t.Parallel()
	for _, tt := range [][3]string{{"/", "a", "/a"}, {"/x", "a", "/x/a"}, {"/x/y", ".a", "/x/y/.a"}} {
		if got := joinName(tt[0], tt[1]); got != tt[2] || got != filepath.Join(tt[0], tt[1]) {
			t.Errorf("joinName(%q, %q) = %q, want %q", tt[0], tt[1], got, tt[2])
		}
	}
}

func TestWalkFolders(t *testing.T) {
	t.Parallel()
	r := tree(t, map[string]string{
		".gitignore":      "out/\n",
		"top.txt":         "",
		"a/1.txt":         "",
		"a/b/2.txt":       "",
		"a/b/c/3.txt":     "",
		"a/skip/4.txt":    "",
		"a/out/5.txt":     "", // ignored: neither the folder nor its file is seen
		"d/6.txt":         "",
		"d/.gitignore":    "*.gen\n",
		"d/e/7.gen":       "", // d's rules apply when d/e is reached from a start in d
		"d/e/8.txt":       "",
		"untouched/9.txt": "",
	})
	var starts []Start
	for _, s := range []string{"a", "d"} {
		p, err := r.Resolve(s)
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, Start{Path: p})
	}
	var mu sync.Mutex
	var dirs, files []string
	err := r.WalkFolders(context.Background(), starts, false, func(e Entry) bool {
		if e.Type != fs.ModeDir {
			t.Errorf("folder %s has type %v", e.Rel, e.Type)
		}
		mu.Lock()
		defer mu.Unlock()
		dirs = append(dirs, e.Rel)
		return e.Name != "skip"
	}, func(e Entry) {
		mu.Lock()
		files = append(files, e.Rel)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(dirs)
	slices.Sort(files)
	if want := []string{"a/b", "a/b/c", "a/skip", "d/e"}; !slices.Equal(dirs, want) {
		t.Errorf("folders: got %q, want %q", dirs, want)
	}
	if want := []string{"a/1.txt", "a/b/2.txt", "a/b/c/3.txt", "d/.gitignore", "d/6.txt", "d/e/8.txt"}; !slices.Equal(files, want) {
		t.Errorf("files: got %q, want %q", files, want)
	}
}

// WalkFolders with all reports what Walk leaves out, each with why: .git
// folders at any depth (inside an ignored folder too) and what they hold,
// ignored files and folders and what they hold; a start may be skipped
// itself, and what is below it is skipped for the same reason.
func TestWalkFoldersAll(t *testing.T) {
	t.Parallel()
	r := tree(t, map[string]string{
		".gitignore":                   "out/\n*.log\n",
		".git/config":                  "",
		".git/hooks/pre-commit":        "",
		"a.txt":                        "",
		"b.log":                        "",
		"out/x.txt":                    "",
		"out/.gitignore":               "!x.txt\n", // not read: out/ is ignored
		"out/dep/.git/HEAD":            "",
		"sub/.git/hooks/post-checkout": "",
		"sub/c.txt":                    "",
		"node_modules/.bin/tool":       "",
	})
	if err := os.WriteFile(filepath.Join(r.Dir(), ".git", "info"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	walk := func(starts ...Start) map[string]Skipped {
		got := map[string]Skipped{}
		var mu sync.Mutex
		err := r.WalkFolders(context.Background(), starts, true, func(e Entry) bool {
			mu.Lock()
			got[e.Rel+"/"] = e.Skipped
			mu.Unlock()
			return true
		}, func(e Entry) {
			mu.Lock()
			got[e.Rel] = e.Skipped
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	top, err := r.Resolve(".")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Skipped{
		".gitignore": NotSkipped, "a.txt": NotSkipped, "sub/": NotSkipped, "sub/c.txt": NotSkipped,
		".git/": InGit, ".git/config": InGit, ".git/hooks/": InGit, ".git/hooks/pre-commit": InGit, ".git/info": InGit,
		"sub/.git/": InGit, "sub/.git/hooks/": InGit, "sub/.git/hooks/post-checkout": InGit,
		"b.log": Ignored, "out/": Ignored, "out/x.txt": Ignored, "out/.gitignore": Ignored, "out/dep/": Ignored,
		"out/dep/.git/": InGit, "out/dep/.git/HEAD": InGit,
		"node_modules/": NotSkipped, "node_modules/.bin/": NotSkipped, "node_modules/.bin/tool": NotSkipped,
	}
	if got := walk(Start{Path: top}); !maps.Equal(got, want) {
		t.Errorf("from the root:\n got %v\nwant %v", got, want)
	}
	out, err := r.Resolve("out")
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]Skipped{"out/x.txt": Ignored, "out/.gitignore": Ignored, "out/dep/": Ignored, "out/dep/.git/": InGit, "out/dep/.git/HEAD": InGit}
	if got := walk(Start{Path: out, Skipped: Ignored}); !maps.Equal(got, want) {
		t.Errorf("from out/:\n got %v\nwant %v", got, want)
	}
	// Walk leaves all of them out.
	if got, want := walkAll(t, r, "."), []string{".gitignore", "a.txt", "node_modules/.bin/tool", "sub/c.txt"}; !slices.Equal(got, want) {
		t.Errorf("Walk: got %q, want %q", got, want)
	}
}
