package ledger

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// benchTree is a project for the benchmarks, made once per test binary:
// go test runs a benchmark function more than once (b.N = 1 first).
type benchTree struct {
	once sync.Once
	dir  string // the project
	err  error
	skip string
}

var benchTrees = map[string]*benchTree{"goroot": {}, "100k": {}, "ignored": {}}

// benchDir is removed at the end of the test binary (TestMain).
var benchDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// tree returns the project folder of the named tree, making it on first use:
// "goroot" is a copy of GOROOT/src (never changed in place), "100k" is
// 1,000 folders of 100 small files, "ignored" is a JavaScript project's
// shape: 1,000 files of its own, a node_modules it ignores (20,000 files in
// 2,000 folders) and a .git folder of 1,000 files, which the ledger lists
// by their stat without keeping them.
func tree(b *testing.B, name string) string {
	bt := benchTrees[name]
	bt.once.Do(func() {
		if benchDir == "" {
			benchDir, bt.err = os.MkdirTemp("", "ledger-bench-")
			if bt.err != nil {
				return
			}
		}
		bt.dir = filepath.Join(benchDir, name)
		switch name {
		case "goroot":
			root, err := exec.Command("go", "env", "GOROOT").Output()
			if err != nil {
				bt.skip = fmt.Sprintf("go env GOROOT: %v", err)
				return
			}
			src := filepath.Join(strings.TrimSpace(string(root)), "src")
			if _, err := os.Stat(src); err != nil {
				bt.skip = "no GOROOT/src on this machine"
				return
			}
			if out, err := exec.Command("cp", "-a", src, bt.dir).CombinedOutput(); err != nil {
				bt.err = fmt.Errorf("copy GOROOT/src: %v: %s", err, out)
			}
		case "100k":
			bt.err = makeFlatTree(bt.dir, 1000, 100)
		case "ignored":
			bt.err = makeIgnoredTree(bt.dir)
		}
	})
	if bt.skip != "" {
		b.Skip(bt.skip)
	}
	if bt.err != nil {
		b.Fatal(bt.err)
	}
	return bt.dir
}

func makeFlatTree(dir string, folders, files int) error {
	for d := range folders {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%04d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		for f := range files {
			content := fmt.Sprintf("package pkg%04d\n\n// File %d.\nfunc F%d() int { return %d }\n", d, f, f, d*files+f)
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%03d.go", f)), []byte(content), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

func makeIgnoredTree(dir string) error {
	if err := makeFlatTree(filepath.Join(dir, "src"), 10, 100); err != nil {
		return err
	}
	if err := makeFlatTree(filepath.Join(dir, "node_modules"), 2000, 10); err != nil {
		return err
	}
	if err := makeFlatTree(filepath.Join(dir, ".git", "objects"), 256, 4); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n"), 0o644)
}

// edits numbers the changes of touchOne across runs.
var edits atomic.Int64

// touchOne changes one file of the tree, as a command would.
func touchOne(b *testing.B, dir string) {
	p := filepath.Join(dir, "ledger-bench-edit.txt")
	if err := os.WriteFile(p, fmt.Appendf(nil, "edit %d\n", edits.Add(1)), 0o644); err != nil {
		b.Fatal(err)
	}
}

// dirSize is the total length of the files below dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

// BenchmarkCommandCheckpoint measures Before + After around a command that
// changes one file, once the project's baseline is stored. The baseline
// (the first Before, which stores every file) is reported as baseline-ms,
// and the store's size after it as store-MB.
//
// The project's folders are watched (Linux), so a scan reads only the
// folders with changes; the -full-scans runs show what a project that
// cannot be watched pays (a network file system, or no inotify watch left).
func BenchmarkCommandCheckpoint(b *testing.B) {
	for _, name := range []string{"goroot", "goroot-full-scans", "100k", "100k-full-scans", "ignored", "ignored-full-scans"} {
		b.Run(name, func(b *testing.B) {
			dir := tree(b, strings.TrimSuffix(name, "-full-scans"))
			home := b.TempDir()
			trees, blobs := newTestTrees(b, home, DefaultLimits)
			root := openRoot(b, dir)
			if strings.HasSuffix(name, "-full-scans") {
				trees.project(root.Dir()).noWatch = errors.New("the benchmark scans everything")
			}
			ctx := context.Background()
			start := time.Now()
			s, err := trees.Before(ctx, root)
			if err != nil {
				b.Fatal(err)
			}
			baseline := time.Since(start)
			if _, err := s.After(ctx); err != nil {
				b.Fatal(err)
			}
			trees.saves.Wait()
			usage, _ := blobs.Usage()
			manifests := dirSize(filepath.Join(home, "trees"))
			blocks := diskBlocks(home)
			// Let the files written just before the baseline age past the
			// racily-clean margin, and rescan them once.
			time.Sleep(time.Duration(racyMargin) + 100*time.Millisecond)
			runCommand(b, trees, root, func() {})
			b.ResetTimer()
			for range b.N {
				effects := runCommand(b, trees, root, func() { touchOne(b, dir) })
				if len(effects) != 1 {
					b.Fatalf("%d effects, want 1: %+v", len(effects), effects)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/op")
			// ResetTimer drops metrics reported before it.
			b.ReportMetric(float64(baseline.Milliseconds()), "baseline-ms")
			b.ReportMetric(float64(usage)/1e6, "store-MB")
			b.ReportMetric(float64(blocks)/1e6, "disk-MB")
			b.ReportMetric(float64(dirSize(dir))/1e6, "tree-MB")
			b.ReportMetric(float64(manifests)/1e6, "manifest-MB")
		})
	}
}

// BenchmarkShadowGit measures the same command checkpoint done with a
// private git repository (GIT_DIR outside the tree): git add -A and
// git write-tree before and after, then git diff-tree. The tree's own .git
// (if any) is never used.
func BenchmarkShadowGit(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	for _, name := range []string{"goroot", "100k"} {
		b.Run(name, func(b *testing.B) {
			dir := tree(b, name)
			gitDir := filepath.Join(b.TempDir(), "shadow.git")
			git := func(args ...string) string {
				cmd := exec.Command("git", args...)
				cmd.Env = append(os.Environ(), "GIT_DIR="+gitDir, "GIT_WORK_TREE="+dir,
					"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
				cmd.Dir = dir
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("git %v: %v", args, err)
				}
				return string(bytes.TrimSpace(out))
			}
			checkpoint := func() string {
				git("add", "-A")
				return git("write-tree")
			}
			git("init", "-q")
			start := time.Now()
			checkpoint()
			baseline := time.Since(start)
			store, blocks := dirSize(gitDir), diskBlocks(gitDir)
			time.Sleep(time.Duration(racyMargin) + 100*time.Millisecond)
			checkpoint()
			b.ResetTimer()
			for range b.N {
				before := checkpoint()
				touchOne(b, dir)
				after := checkpoint()
				if out := git("diff-tree", "-r", "--name-status", before, after); out == "" {
					b.Fatal("git saw no change")
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/op")
			b.ReportMetric(float64(baseline.Milliseconds()), "baseline-ms")
			b.ReportMetric(float64(store)/1e6, "store-MB")
			b.ReportMetric(float64(blocks)/1e6, "disk-MB")
		})
	}
}

// BenchmarkLedgerGrowth stores 100 successive edits of a 1 MB text file,
// each replacing a few lines (about 1 KB), each against the previous
// version, and reports the bytes the store grew by per byte changed.
func BenchmarkLedgerGrowth(b *testing.B) {
	for range b.N {
		blobs, _ := openTestBlobs(b)
		cur := textFile(1<<20, 11)
		prev, err := blobs.Put(cur, "")
		if err != nil {
			b.Fatal(err)
		}
		first, _ := blobs.Usage()
		r := rand.New(rand.NewPCG(11, 12))
		changed := 0
		for e := range 100 {
			var n int
			cur, n = replaceLines(r, cur, uint64(e))
			changed += n
			if prev, err = blobs.Put(cur, prev); err != nil {
				b.Fatal(err)
			}
		}
		last, _ := blobs.Usage()
		got, err := blobs.Get(prev)
		if err != nil || !bytes.Equal(got, cur) {
			b.Fatal("the last version does not come back")
		}
		b.ReportMetric(float64(last-first)/float64(changed), "stored/changed")
		b.ReportMetric(float64(changed)/100, "changed-B/edit")
		b.ReportMetric(float64(first)/1e3, "first-copy-kB")
	}
}

// replaceLines replaces four lines of text by new ones (about 1 KB in all)
// and returns the new text and the number of bytes written.
func replaceLines(r *rand.Rand, text []byte, seed uint64) ([]byte, int) {
	lines := bytes.SplitAfter(text, []byte("\n"))
	n := 0
	for range 4 {
		i := r.IntN(len(lines) - 1)
		l := append(textFile(250, 1000+seed*4+uint64(i)), '\n')
		lines[i] = l
		n += len(l)
	}
	return bytes.Join(lines, nil), n
}
