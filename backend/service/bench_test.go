package service

import (
	"pilot/backend/wire"

	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// The benchmark trees, generated once per test process into a temporary
// folder that TestMain removes:
//
//	repo/  a repository's shape: 100,000 tracked files four levels down in
//	       src/ (a .gitignore in every area), 50,000 more in the ignored
//	       node_modules/, a .git folder and the usual files at the root
//	flat/  one folder, flat/, of 100,000 files
const (
	benchAreas    = 10  // src/<area>
	benchPkgs     = 10  // src/<area>/<pkg>
	benchSubs     = 10  // src/<area>/<pkg>/<sub>
	benchPerDir   = 100 // files in each sub
	benchModules  = 500 // node_modules/<module>
	benchPerMod   = 100 // files in each module
	benchFlat     = 100_000
	benchDeepFile = "src/billing/ledger/internal/reconcile/statement_exporter.go"
	benchDeepQ    = "ledgstmtexp"
)

var (
	benchWords = []string{"api", "auth", "billing", "core", "db", "events", "jobs", "search", "ui", "util"}
	benchSub   = []string{"handlers", "models", "internal", "views", "store", "cache", "client", "server", "types", "tests"}

	benchTree struct {
		once sync.Once
		dir  string
		err  error
	}
)

// benchTrees returns the folder holding repo/ and flat/.
func benchTrees(b *testing.B) string {
	b.Helper()
	benchTree.once.Do(func() {
		benchTree.dir, benchTree.err = os.MkdirTemp("", "pilot-files-bench-")
		if benchTree.err == nil {
			benchTree.err = writeBenchTrees(benchTree.dir)
		}
	})
	if benchTree.err != nil {
		b.Fatal(benchTree.err)
	}
	return benchTree.dir
}

func writeBenchTrees(dir string) error {
	files := map[string]string{
		"repo/.gitignore":       "node_modules/\n/dist/\n*.log\n.cache/\n",
		"repo/.git/HEAD":        "ref: refs/heads/main\n",
		"repo/.git/config":      "[core]\n",
		"repo/README.md":        "# bench\n",
		"repo/go.mod":           "module bench\n",
		"repo/package.json":     "{}\n",
		"repo/Makefile":         "all:\n",
		"repo/docs/guide.md":    "guide\n",
		"repo/dist/app.js":      "",
		"repo/debug.log":        "",
		"repo/" + benchDeepFile: "package reconcile\n",
		"flat/README.md":        "flat\n",
	}
	for name, text := range files {
		if err := writeFile(filepath.Join(dir, name), text); err != nil {
			return err
		}
	}
	for a, area := range benchWords {
		adir := filepath.Join(dir, "repo", "src", area)
		if err := writeFile(filepath.Join(adir, ".gitignore"), "*.tmp\ngenerated/\n"); err != nil {
			return err
		}
		for p := range benchPkgs {
			for s, sub := range benchSub {
				d := filepath.Join(adir, fmt.Sprintf("%s%d", benchWords[(a+p)%len(benchWords)], p), sub)
				if err := writeEmpty(d, benchPerDir, func(i int) string { return fmt.Sprintf("%s_%s_%03d.go", sub, benchWords[(i+s)%len(benchWords)], i) }); err != nil {
					return err
				}
			}
		}
	}
	for m := range benchModules {
		d := filepath.Join(dir, "repo", "node_modules", fmt.Sprintf("module-%03d", m), "lib")
		if err := writeEmpty(d, benchPerMod, func(i int) string { return fmt.Sprintf("part%03d.js", i) }); err != nil {
			return err
		}
	}
	return writeEmpty(filepath.Join(dir, "flat", "flat"), benchFlat, func(i int) string { return fmt.Sprintf("file%06d.txt", i) })
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// writeEmpty creates n empty files named name(i) in dir.
func writeEmpty(dir string, n int, name func(int) string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := range n {
		f, err := os.Create(filepath.Join(dir, name(i)))
		if err != nil {
			return err
		}
		f.Close()
	}
	return nil
}

// benchProject opens one of the trees as a project of a fresh service
// whose active session changed the first 100 files of flat/.
func benchProject(b *testing.B, tree string) (*Service, int64) {
	b.Helper()
	dir := filepath.Join(benchTrees(b), tree)
	w := newWorkspace(b, nil)
	p, err := w.Projects.Open(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	w.core.changes.active = 1
	w.core.changes.changed = map[string]struct{}{}
	for i := range 100 {
		w.core.changes.changed[fmt.Sprintf("flat/file%06d.txt", i*1000)] = struct{}{}
	}
	return w, p.ID
}

// BenchmarkListDir lists a folder as the file tree does when it is
// expanded: its first page, which reads and sorts the whole folder (the
// root of the repository, the flat folder of 100,000 files), with the
// changed marks.
func BenchmarkListDir(b *testing.B) {
	for _, c := range []struct{ name, tree, dir string }{
		{"root", "repo", ""},
		{"flat100k", "flat", "flat"},
	} {
		b.Run(c.name, func(b *testing.B) {
			w, id := benchProject(b, c.tree)
			ctx := context.Background()
			var n int
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				l, err := w.Files.ListDir(ctx, id, 0, wire.DirPageQuery{Dir: c.dir, Locale: "en-US", Limit: 200})
				if err != nil {
					b.Fatal(err)
				}
				n = l.Total
			}
			b.ReportMetric(float64(n), "entries")
		})
	}
}

// BenchmarkFindFiles runs the @ picker's search over the repository: a
// fuzzy query whose best match is one deep file, and one letter that
// matches nearly every path.
func BenchmarkFindFiles(b *testing.B) {
	for _, c := range []struct{ name, query, first string }{
		{"deep", benchDeepQ, benchDeepFile},
		{"1letter", "s", ""},
	} {
		b.Run(c.name, func(b *testing.B) {
			w, id := benchProject(b, "repo")
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				got, err := w.Files.Find(ctx, id, 0, c.query, 12)
				if err != nil {
					b.Fatal(err)
				}
				if len(got) == 0 || (c.first != "" && got[0] != c.first) {
					b.Fatalf("FindFiles(%q) = %q", c.query, got)
				}
			}
		})
	}
}
