package ledger

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// files is what a manifest says of each file: its hash, mode and why it
// is not kept.
func files(m *manifest) map[string]string {
	out := make(map[string]string, len(m.files))
	for rel, e := range m.files {
		out[rel] = fmt.Sprintf("%x %v %d", e.hash[:6], e.mode, e.skip)
	}
	return out
}

// fullScan scans dir from nothing, with a ledger of its own.
func fullScan(t *testing.T, dir string) *manifest {
	t.Helper()
	trees, _ := newTestTrees(t, t.TempDir(), DefaultLimits)
	s, err := trees.Before(context.Background(), openRoot(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	return s.before
}

// treeOps changes a project the way commands do, at random.
type treeOps struct {
	t   *testing.T
	dir string
	r   *rand.Rand
	n   int
}

func (o *treeOps) abs(rel string) string { return filepath.Join(o.dir, filepath.FromSlash(rel)) }

// pick returns a random existing file or folder below the project (not
// the project itself), or "" when there is none.
func (o *treeOps) pick(wantDir bool) string {
	var all []string
	filepath.WalkDir(o.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != o.dir && d.IsDir() == wantDir {
			rel, _ := filepath.Rel(o.dir, p)
			all = append(all, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(all) == 0 {
		return ""
	}
	slices.Sort(all)
	return all[o.r.IntN(len(all))]
}

func (o *treeOps) folder() string {
	if d := o.pick(true); d != "" && o.r.IntN(3) > 0 {
		return d
	}
	return "."
}

func (o *treeOps) write(rel, content string) {
	if err := os.MkdirAll(filepath.Dir(o.abs(rel)), 0o755); err != nil {
		o.t.Fatal(err)
	}
	if err := os.WriteFile(o.abs(rel), []byte(content), 0o644); err != nil {
		o.t.Fatal(err)
	}
}

// step does one random change and says what it was.
func (o *treeOps) step() string {
	o.n++
	name := fmt.Sprintf("n%d", o.n)
	switch o.r.IntN(14) {
	case 0, 1: // a new file in a folder that exists
		rel := filepath.ToSlash(filepath.Join(o.folder(), name+".txt"))
		o.write(rel, "new "+name)
		return "create " + rel
	case 2: // new nested folders with files
		base := filepath.ToSlash(filepath.Join(o.folder(), name))
		o.write(base+"/a/b/deep.txt", "deep")
		o.write(base+"/top.txt", "top")
		return "mkdir -p " + base
	case 3, 4: // the same size, at once: racily clean unless watched
		if f := o.pick(false); f != "" {
			data, _ := os.ReadFile(o.abs(f))
			if len(data) > 0 {
				data[0] ^= 1
			}
			os.WriteFile(o.abs(f), data, 0o644)
			return "modify " + f
		}
	case 5:
		if f := o.pick(false); f != "" {
			os.Remove(o.abs(f))
			return "rm " + f
		}
	case 6:
		if d := o.pick(true); d != "" {
			os.RemoveAll(o.abs(d))
			return "rm -r " + d
		}
	case 7: // a folder moved into another (or the root)
		if d := o.pick(true); d != "" {
			to := filepath.ToSlash(filepath.Join(o.folder(), name))
			if to == d || strings.HasPrefix(to, d+"/") {
				return "no move"
			}
			os.Rename(o.abs(d), o.abs(to))
			return "mv " + d + " " + to
		}
	case 8:
		if f := o.pick(false); f != "" {
			to := filepath.ToSlash(filepath.Join(o.folder(), name+".moved"))
			os.Rename(o.abs(f), o.abs(to))
			return "mv " + f + " " + to
		}
	case 9:
		rel := filepath.ToSlash(filepath.Join(o.folder(), name+".link"))
		os.Symlink("target-"+name, o.abs(rel))
		return "ln -s " + rel
	case 10:
		if f := o.pick(false); f != "" {
			os.Chmod(o.abs(f), 0o755)
			return "chmod +x " + f
		}
	case 11: // an ignored file
		rel := filepath.ToSlash(filepath.Join(o.folder(), name+".log"))
		o.write(rel, "log "+name)
		return "create " + rel
	case 12: // a file in an ignored folder
		rel := filepath.ToSlash(filepath.Join(o.folder(), "build", name+".o"))
		o.write(rel, "object "+name)
		return "create " + rel
	case 13: // git init, and a hook
		rel := filepath.ToSlash(filepath.Join(o.folder(), ".git", "hooks", name))
		o.write(rel, "#!/bin/sh\n")
		os.Chmod(o.abs(rel), 0o755)
		return "create " + rel
	}
	return "nothing"
}

// TestWatchedScansMatchFullScans changes a project at random between
// commands and checks, after every command, that the scans that read only
// the folders with changes see exactly what a scan of everything sees.
func TestWatchedScansMatchFullScans(t *testing.T) {
	t.Parallel()
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			o := &treeOps{t: t, dir: dir, r: rand.New(rand.NewPCG(seed, 7))}
			o.write(".gitignore", "*.log\nbuild/\n")
			o.write("src/main.go", "package main")
			o.write("src/lib/lib.go", "package lib")
			o.write("docs/readme.md", "read me")
			os.MkdirAll(o.abs("empty"), 0o755)
			trees, _ := newTestTrees(t, t.TempDir(), DefaultLimits)
			root := openRoot(t, dir)
			ctx := context.Background()
			var log []string
			for cmd := range 25 {
				s, err := trees.Before(ctx, root)
				if err != nil {
					t.Fatal(err)
				}
				full := fullScan(t, dir)
				if want := files(full); !maps.Equal(files(s.before), want) {
					t.Fatalf("before command %d, after %q:\nwatched %v\n   full %v", cmd, log, files(s.before), want)
				}
				if !maps.Equal(s.before.dirs, full.dirs) {
					t.Fatalf("before command %d, after %q: folders\nwatched %v\n   full %v", cmd, log, s.before.dirs, full.dirs)
				}
				for range 1 + o.r.IntN(4) {
					log = append(log, o.step())
				}
				if _, err := s.After(ctx); err != nil {
					t.Fatal(err)
				}
				p := trees.project(root.Dir())
				full = fullScan(t, dir)
				if want := files(full); !maps.Equal(files(p.cur), want) {
					t.Fatalf("after command %d, after %q:\nwatched %v\n   full %v", cmd, log, files(p.cur), want)
				}
				if !maps.Equal(p.cur.dirs, full.dirs) {
					t.Fatalf("after command %d, after %q: folders\nwatched %v\n   full %v", cmd, log, p.cur.dirs, full.dirs)
				}
				// A change outside any command, seen by the next Before.
				if o.r.IntN(3) == 0 {
					log = append(log, "between: "+o.step())
				}
			}
			if runtime.GOOS == "linux" {
				p := trees.project(root.Dir())
				if p.noWatch != nil {
					t.Fatalf("not watched: %v", p.noWatch)
				}
				if p.scans.partial+p.scans.none < 40 {
					t.Errorf("scans %+v: most of the 50 should read only what changed", p.scans)
				}
			}
		})
	}
}

// TestWatchedScanKinds checks when a watched project is read in full, in
// part, or not at all.
func TestWatchedScanKinds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("folders are watched on Linux only")
	}
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a/one.txt": "1", "b/two.txt": "2", ".gitignore": "*.log\n"})
	trees, _ := newTestTrees(t, t.TempDir(), DefaultLimits)
	root := openRoot(t, dir)
	p := trees.project(root.Dir())
	steps := []struct {
		name   string
		change func()
		want   scanCounts // added by one command (Before and After)
		effect []string
	}{
		{"first", func() {}, scanCounts{full: 1, none: 1}, nil},
		{"nothing", func() {}, scanCounts{none: 2}, nil},
		{"one file", func() { writeFiles(t, dir, map[string]string{"a/one.txt": "one"}) }, scanCounts{none: 1, partial: 1}, []string{"a/one.txt modified"}},
		// An ignored file is listed, by its stat.
		{"ignored file", func() { writeFiles(t, dir, map[string]string{"b/x.log": "log"}) }, scanCounts{none: 1, partial: 1}, []string{"b/x.log created"}},
		// Files the rules now ignore, or no longer ignore, did not change.
		{"ignore rules", func() { writeFiles(t, dir, map[string]string{".gitignore": "*.txt\n"}) }, scanCounts{none: 1, full: 1}, []string{".gitignore modified"}},
		{"exclude", func() { writeFiles(t, dir, map[string]string{".git/info/exclude": ".gitignore\n"}) }, scanCounts{none: 1, full: 1}, []string{".git created", ".git/info/exclude created"}},
		// An ignore file in a folder the ledger does not keep changes no rule.
		{"ignore file in .git", func() { writeFiles(t, dir, map[string]string{".git/info/.gitignore": "*\n"}) }, scanCounts{none: 1, partial: 1}, []string{".git/info/.gitignore created"}},
		{"a hook", func() { writeFiles(t, dir, map[string]string{".git/hooks/post-checkout": "#!/bin/sh\n"}) }, scanCounts{none: 1, partial: 1}, []string{".git/hooks/post-checkout created"}},
	}
	for _, st := range steps {
		before := p.scans
		effects := runCommand(t, trees, root, st.change)
		got := scanCounts{p.scans.full - before.full, p.scans.partial - before.partial, p.scans.none - before.none}
		if got != st.want {
			t.Errorf("%s: scans %+v, want %+v", st.name, got, st.want)
		}
		var effs []string
		for _, e := range effects {
			effs = append(effs, e.Path+" "+string(e.Op))
		}
		if !slices.Equal(effs, st.effect) {
			t.Errorf("%s: effects %q, want %q", st.name, effs, st.effect)
		}
	}
}
