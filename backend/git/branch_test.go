package git

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoForTest makes a repository with one commit of files and returns git
// and its folder; identity is set in the repository.
func repoForTest(t *testing.T, files map[string]string) (Git, string) {
	t.Helper()
	ctx := context.Background()
	g, err := Find(ctx)
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		if _, err := g.Run(ctx, dir, args...); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q")
	run("config", "user.email", "t@example.com")
	run("config", "user.name", "T")
	for p, c := range files {
		writeFile(t, filepath.Join(dir, p), c)
	}
	run("add", "-A")
	run("commit", "-q", "--allow-empty", "-m", "base")
	return g, dir
}

func writeFile(t *testing.T, p, c string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBranchChangesCommittedUncommittedUntracked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, dir := repoForTest(t, map[string]string{
		"a.txt": "a\n", "b.txt": "b\n", "gone.txt": "g\n", "same.txt": "s\n", ".gitignore": "*.log\n", "é dir/sp ace.txt": "x\n",
	})
	base, err := g.Run(ctx, dir, "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	base = strings.TrimSpace(base)
	writeFile(t, filepath.Join(dir, "a.txt"), "a committed\n")
	if _, err := g.Run(ctx, dir, "commit", "-q", "-am", "on the branch"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "b.txt"), "b uncommitted\n")
	writeFile(t, filepath.Join(dir, "é dir/sp ace.txt"), "y\n")
	writeFile(t, filepath.Join(dir, "sub/new.txt"), "untracked\n")
	writeFile(t, filepath.Join(dir, "x.log"), "ignored\n")
	if err := os.Remove(filepath.Join(dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	files, err := g.BranchChanges(ctx, dir, base)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	if strings.Join(got, " ") != "a.txt b.txt gone.txt sub/new.txt é dir/sp ace.txt" {
		t.Fatalf("changed files = %v", got)
	}
	a, gone, nw, odd := files[0], files[2], files[3], files[4]
	if string(odd.Base) != "x\n" || string(odd.Now) != "y\n" {
		t.Fatalf("a name with a space and an accent = %+v", odd)
	}
	if string(a.Base) != "a\n" || string(a.Now) != "a committed\n" || !a.InBase || !a.Exists {
		t.Fatalf("a.txt = %+v", a)
	}
	if !gone.InBase || gone.Exists || string(gone.Base) != "g\n" {
		t.Fatalf("gone.txt = %+v", gone)
	}
	if nw.InBase || !nw.Exists || string(nw.Now) != "untracked\n" || nw.Mode != 0o644 {
		t.Fatalf("sub/new.txt = %+v", nw)
	}
}

func TestMergeFile(t *testing.T) {
	t.Parallel()
	g, _ := repoForTest(t, nil)
	ctx := context.Background()
	base := "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
	theirs := strings.Replace(base, "2\n", "two\n", 1)
	ours := strings.Replace(base, "8\n", "eight\n", 1)
	got, clean, err := g.MergeFile(ctx, []byte(ours), []byte(base), []byte(theirs))
	if err != nil || !clean || string(got) != strings.Replace(ours, "2\n", "two\n", 1) {
		t.Fatalf("a clean merge = %q, %v, %v", got, clean, err)
	}
	ours = strings.Replace(base, "2\n", "deux\n", 1)
	if got, clean, err = g.MergeFile(ctx, []byte(ours), []byte(base), []byte(theirs)); err != nil || clean || got != nil {
		t.Fatalf("a conflicting merge = %q, %v, %v", got, clean, err)
	}
}

func TestCommitPathsAndAll(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, dir := repoForTest(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	writeFile(t, filepath.Join(dir, "a.txt"), "a2\n")
	writeFile(t, filepath.Join(dir, "b.txt"), "b2\n")
	if _, _, err := g.CommitPaths(ctx, dir, "only a", []string{"a.txt", "never.txt"}); err != nil {
		t.Fatal(err)
	}
	st, _ := g.Run(ctx, dir, "status", "--porcelain")
	if strings.TrimSpace(st) != "M b.txt" {
		t.Fatalf("after committing a.txt only, status = %q", st)
	}
	commit, files, err := g.CommitAll(ctx, dir, "the rest")
	if err != nil || commit == "" || strings.Join(files, " ") != "b.txt" {
		t.Fatalf("CommitAll = %q %v %v", commit, files, err)
	}
	if _, _, err := g.CommitAll(ctx, dir, "again"); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("committing nothing: %v", err)
	}
}

// A change of the executable bit alone, a file turned into a link and a
// new link are listed with their modes on both sides (the old code
// dropped a change of mode: same bytes on both sides).
func TestBranchChangesModesAndLinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, dir := repoForTest(t, map[string]string{"run.sh": "echo hi\n", "was-file": "x\n", "same.txt": "s\n"})
	base, err := g.Run(ctx, dir, "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "was-file")); err != nil {
		t.Fatal(err)
	}
	for target, link := range map[string]string{"same.txt": "was-file", "run.sh": "link"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	files, err := g.BranchChanges(ctx, dir, strings.TrimSpace(base))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, fmt.Sprintf("%s %v %o>%v %o %q", f.Path, f.InBase, f.BaseMode&fs.ModePerm, f.Mode&fs.ModeSymlink != 0, f.Mode&fs.ModePerm, f.Now))
	}
	want := []string{`link false 0>true 777 "run.sh"`, `run.sh true 644>false 755 "echo hi\n"`, `was-file true 644>true 777 "same.txt"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("changes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
