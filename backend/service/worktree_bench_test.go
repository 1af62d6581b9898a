package service

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pilot/backend/git"
)

// BenchmarkWorktreeSession: creating a worktree session
// (NewWorktreeSession: name checks, git found, the repository's top and
// HEAD, git worktree add, the MCP trust, the session row) against `git
// worktree add` alone on the same repository in the same run, alternating.
// It reports the medians of both, of their difference in each pair, and
// of the overhead proper: the session's time less the git worktree add
// inside it (target ≤ 100 ms; medians, as a loaded machine's file system
// makes single checkouts vary by seconds, which the pairwise difference
// carries and the overhead proper does not) on a clone of this
// repository and on a repository of 100,000 committed files
// (PILOT_BENCH_BIG=1; it takes a while to make).
func BenchmarkWorktreeSession(b *testing.B) {
	repos := []struct {
		name string
		make func(b *testing.B) string
	}{{"this-repo", cloneThisRepo}}
	if os.Getenv("PILOT_BENCH_BIG") == "1" {
		repos = append(repos, struct {
			name string
			make func(b *testing.B) string
		}{"100k-files", bigRepo})
	}
	for _, r := range repos {
		b.Run(r.name, func(b *testing.B) {
			ctx := context.Background()
			dir := r.make(b)
			w := openAt(b, b.TempDir(), nil)
			defer w.Close()
			p, err := w.Projects.Open(ctx, dir)
			if err != nil {
				b.Fatal(err)
			}
			g, err := git.Find(ctx)
			if err != nil {
				b.Fatal(err)
			}
			head, err := g.Head(ctx, dir)
			if err != nil {
				b.Fatal(err)
			}
			plain := b.TempDir()
			var gitT, sessT, innerT []time.Duration
			// The git worktree add inside NewWorktreeSession, timed: the
			// session's time less it is what Pilot adds, free of the noise
			// of two separate checkouts.
			gitWorktreeAdd = func(g git.Git, ctx context.Context, repo, path, branch, base string) error {
				start := time.Now()
				err := g.AddWorktree(ctx, repo, path, branch, base)
				innerT = append(innerT, time.Since(start))
				return err
			}
			defer func() { gitWorktreeAdd = git.Git.AddWorktree }()
			for i := range b.N {
				name := fmt.Sprintf("bench-%d", i)
				timeGit := func() {
					path := filepath.Join(plain, name)
					start := time.Now()
					if err := g.AddWorktree(ctx, dir, path, "plain/"+name, head); err != nil {
						b.Fatal(err)
					}
					gitT = append(gitT, time.Since(start))
					b.StopTimer()
					if err := g.RemoveWorktree(ctx, dir, path); err != nil {
						b.Fatal(err)
					}
					if err := g.DeleteBranch(ctx, dir, "plain/"+name); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				timeSession := func() {
					start := time.Now()
					s, err := w.Worktrees.NewSession(ctx, p.ID, name)
					if err != nil {
						b.Fatal(err)
					}
					sessT = append(sessT, time.Since(start))
					b.StopTimer()
					if err := w.Sessions.Delete(ctx, s.ID); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				if i%2 == 0 {
					timeGit()
					timeSession()
				} else {
					timeSession()
					timeGit()
				}
			}
			diff, own := make([]time.Duration, b.N), make([]time.Duration, b.N)
			for i := range diff {
				diff[i] = sessT[i] - gitT[i]
				own[i] = sessT[i] - innerT[i]
			}
			b.ReportMetric(medianMS(gitT), "git-add-ms")
			b.ReportMetric(medianMS(sessT), "session-ms")
			b.ReportMetric(medianMS(diff), "session-minus-git-ms")
			b.ReportMetric(medianMS(own), "overhead-ms")
		})
	}
}

// medianMS is the median of ds in milliseconds.
func medianMS(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}

// cloneThisRepo clones the repository this test runs in (sharing its
// objects) into a temporary folder.
func cloneThisRepo(b *testing.B) string {
	b.Helper()
	ctx := context.Background()
	g, err := git.Find(ctx)
	if err != nil {
		b.Fatal(err)
	}
	top, err := g.Toplevel(ctx, ".")
	if err != nil {
		b.Skip(err)
	}
	dir := filepath.Join(b.TempDir(), "pilot")
	// The user's git, not Pilot's: Pilot's runs no transport, a local
	// clone's included.
	if out, err := exec.Command("git", "clone", "-q", "--shared", top, dir).CombinedOutput(); err != nil {
		b.Fatalf("git clone: %v\n%s", err, out)
	}
	return dir
}

// bigRepo is a repository of 100,000 committed files, 100 to a folder.
func bigRepo(b *testing.B) string { return bigRepoWith(b, nil) }

// bigRepoWith is bigRepo with more files committed beside them.
func bigRepoWith(b *testing.B, extra map[string]string) string {
	b.Helper()
	ctx := context.Background()
	dir := b.TempDir()
	for p, c := range extra {
		put(b, filepath.Join(dir, p), c)
	}
	for d := range 1000 {
		sub := filepath.Join(dir, "src", fmt.Sprintf("pkg%03d", d/100), fmt.Sprintf("mod%02d", d%100))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("file%02d.go", f)), []byte(fmt.Sprintf("package mod%02d // %d\n", d%100, f)), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	g, err := git.Find(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "big"}} {
		if _, err := g.Run(ctx, dir, args...); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkGetBranch200In100k is BenchmarkGetBranch200 in a repository of
// 100,000 more committed files (PILOT_BENCH_BIG=1): the 200 changed files
// (two hunks each) read for review from a worktree that big.
func BenchmarkGetBranch200In100k(b *testing.B) {
	if os.Getenv("PILOT_BENCH_BIG") != "1" {
		b.Skip("set PILOT_BENCH_BIG=1: it makes a repository of 100,000 files")
	}
	ctx := context.Background()
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("f%03d.txt", i)] = twelve
	}
	proj := bigRepoWith(b, files)
	g, err := git.Find(ctx)
	if err != nil {
		b.Fatal(err)
	}
	base, err := g.Head(ctx, proj)
	if err != nil {
		b.Fatal(err)
	}
	wt := filepath.Join(b.TempDir(), "x")
	if err := g.AddWorktree(ctx, proj, wt, "pilot/x", base); err != nil {
		b.Fatal(err)
	}
	for i := range 200 {
		put(b, filepath.Join(wt, fmt.Sprintf("f%03d.txt", i)), strings.Replace(strings.Replace(twelve, "two\n", "TWO\n", 1), "eleven\n", "ELEVEN\n", 1))
	}
	w := openAt(b, b.TempDir(), nil)
	defer w.Close()
	id := worktreeSessionIn(b, w, proj, wt, base)
	for b.Loop() {
		v, err := w.Git.Branch(ctx, id)
		if err != nil || len(v.Files) != 200 {
			b.Fatal(len(v.Files), err)
		}
	}
}
