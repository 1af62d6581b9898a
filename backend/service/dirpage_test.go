package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pilot/backend/wire"
)

// pagedProject opens a project with files (paths relative to its root;
// a trailing / makes a folder) and returns the service, its id and root.
func pagedProject(t *testing.T, files ...string) (*Service, int64, string) {
	t.Helper()
	w := newWorkspace(t, nil)
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if strings.HasSuffix(f, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := w.Projects.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return w, p.ID, dir
}

// numbered is n paths dir/f0000.txt, dir/f0001.txt…
func numbered(dir string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s/f%04d.txt", dir, i)
	}
	return out
}

// settle dates the folder's modification time a minute back, so that its
// listing is trusted until the folder changes again (see racyWindow).
func settle(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(dir, old, old); err != nil {
		t.Fatal(err)
	}
}

func names(p wire.DirPage) []string {
	out := make([]string, len(p.Entries))
	for i, e := range p.Entries {
		out[i] = e.Name
	}
	return out
}

func TestListDirPages(t *testing.T) {
	t.Parallel()
	w, id, root := pagedProject(t, "b.txt", "A.txt", "a.txt", "Zed/", "ä.txt", "src/", ".gitignore", "debug.log", ".git/")
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("src", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	all := []string{"link", "src", "Zed", ".gitignore", "a.txt", "A.txt", "ä.txt", "b.txt"}
	for _, c := range []struct {
		name          string
		offset, limit int
		want          []string
		wantErr       string
	}{
		{"first page", 0, 3, all[:3], ""},
		{"middle page", 3, 3, all[3:6], ""},
		{"last page, short", 6, 3, all[6:], ""},
		{"all at once", 0, wire.DirPageMax, all, ""},
		{"offset at the end", len(all), 5, []string{}, ""},
		{"offset past the end", 100, 5, []string{}, ""},
		{"negative offset", -1, 5, nil, "starts at 0 or later"},
		{"no entries asked", 0, 0, nil, "1 to 1000"},
		{"too many asked", 0, wire.DirPageMax + 1, nil, "1 to 1000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, err := w.Files.ListDir(ctx, id, 0, wire.DirPageQuery{Locale: "en-US", Offset: c.offset, Limit: c.limit})
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names(p), c.want) || p.Total != len(all) || p.Offset != c.offset || p.Dir != "" {
				t.Fatalf("page = %+v, want names %q of %d", p, c.want, len(all))
			}
		})
	}
	p, err := w.Files.ListDir(ctx, id, 0, wire.DirPageQuery{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := []wire.TreeEntry{{Name: "link", Dir: true, Link: true}, {Name: "src", Dir: true}, {Name: "Zed", Dir: true}}
	if !slices.Equal(p.Entries, want) {
		t.Errorf("marks = %+v, want %+v (ignored debug.log and .git left out)", p.Entries, want)
	}
}

func TestListDirErrors(t *testing.T) {
	t.Parallel()
	w, id, _ := pagedProject(t, "f.txt")
	ctx := context.Background()
	for _, c := range []struct{ dir, want string }{
		{"missing", "does not exist"},
		{"f.txt", "is a file, not a folder"},
		{"../outside", "outside"},
	} {
		if _, err := w.Files.ListDir(ctx, id, 0, wire.DirPageQuery{Dir: c.dir, Limit: 10}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ListDir(%q) err %v, want %q", c.dir, err, c.want)
		}
	}
	if _, err := w.Files.ListDir(ctx, 9999, 0, wire.DirPageQuery{Limit: 10}); err == nil {
		t.Error("ListDir of an unknown project succeeded")
	}
}

// TestListDirBetweenPages changes a folder between the pages the window
// asks for: the next page is from a new listing, with a new version.
func TestListDirBetweenPages(t *testing.T) {
	t.Parallel()
	w, id, root := pagedProject(t, numbered("big", 2500)...)
	big := filepath.Join(root, "big")
	settle(t, big)
	ctx := context.Background()
	q := wire.DirPageQuery{Dir: "big", Locale: "en", Limit: 1000}
	first, err := w.Files.ListDir(ctx, id, 0, q)
	if err != nil {
		t.Fatal(err)
	}
	if first.Total != 2500 || first.Version == 0 || first.Entries[999].Name != "f0999.txt" || first.Dir != "big" {
		t.Fatalf("first page: total %d, version %d, last %q", first.Total, first.Version, first.Entries[999].Name)
	}

	q.Version, q.Offset = first.Version, 1000
	second, err := w.Files.ListDir(ctx, id, 0, q)
	if err != nil || second.Version != first.Version || second.Entries[0].Name != "f1000.txt" {
		t.Fatalf("unchanged folder: version %d→%d, first %q, %v", first.Version, second.Version, second.Entries[0].Name, err)
	}

	// A file appears (sorting first) and one goes.
	if err := os.WriteFile(filepath.Join(big, "a-new.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(big, "f2499.txt")); err != nil {
		t.Fatal(err)
	}
	q.Offset = 2000
	third, err := w.Files.ListDir(ctx, id, 0, q)
	if err != nil {
		t.Fatal(err)
	}
	if third.Version == first.Version || third.Total != 2500 || third.Entries[0].Name != "f1999.txt" || names(third)[len(third.Entries)-1] != "f2498.txt" {
		t.Fatalf("changed folder: version %d (was %d), total %d, %q…%q", third.Version, first.Version, third.Total, third.Entries[0].Name, names(third)[len(third.Entries)-1])
	}

	// A fresh listing of a folder that did not change keeps its version.
	settle(t, big)
	q.Version, q.Offset = 0, 0
	again, err := w.Files.ListDir(ctx, id, 0, q)
	if err != nil || again.Version != third.Version || again.Entries[0].Name != "a-new.txt" {
		t.Fatalf("fresh listing of the same entries: version %d, want %d; first %q; %v", again.Version, third.Version, again.Entries[0].Name, err)
	}
}

// TestListDirMarksAreCurrent: a kept listing still reads the changed
// marks of the moment, deep in the folder.
func TestListDirMarksAreCurrent(t *testing.T) {
	t.Parallel()
	w, id, root := pagedProject(t, numbered("flat", 3000)...)
	settle(t, filepath.Join(root, "flat"))
	ctx := context.Background()
	q := wire.DirPageQuery{Dir: "flat", Limit: 10}
	first, err := w.Files.ListDir(ctx, id, 0, q)
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	w.core.mu.Lock()
	w.core.changes.changed = map[string]struct{}{"flat/f2995.txt": {}}
	w.core.changes.root = real // the active session works in the project folder
	w.core.mu.Unlock()
	q.Version, q.Offset = first.Version, 2990
	p, err := w.Files.ListDir(ctx, id, 0, q)
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, e := range p.Entries {
		if e.Changed {
			changed = append(changed, e.Name)
		}
	}
	if p.Version != first.Version || !slices.Equal(changed, []string{"f2995.txt"}) {
		t.Fatalf("version %d (want %d), changed %q, want f2995.txt", p.Version, first.Version, changed)
	}
}

// TestTreeListingsKept: the least recently used listing goes past treeKept.
func TestTreeListingsKept(t *testing.T) {
	t.Parallel()
	var ls treeListings
	key := func(i int) listingKey { return listingKey{root: "/p", dir: fmt.Sprint(i)} }
	versions := map[int]int64{}
	for i := range treeKept + 1 {
		versions[i] = ls.put(key(i), &treeListing{names: []string{fmt.Sprint(i)}}).version
		if i == 0 {
			continue
		}
		ls.get(key(0), versions[0]) // 0 stays in use
	}
	if len(ls.m) != treeKept || ls.get(key(0), versions[0]) == nil || ls.get(key(1), versions[1]) != nil {
		t.Fatalf("kept %d listings; 0 kept %v, 1 dropped %v", len(ls.m), ls.get(key(0), versions[0]) != nil, ls.get(key(1), versions[1]) == nil)
	}
	if ls.get(key(0), 0) != nil || ls.get(key(0), versions[0]+100) != nil {
		t.Error("get returned a listing for version 0 or another version")
	}
}
