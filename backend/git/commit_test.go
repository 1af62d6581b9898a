package git

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// CommitAll commits the files as they are on disk, even after a command
// (the worktree's index is writable in the sandbox) staged a blob under a
// path no file has, and marked an entry skip-worktree with other content:
// the old code committed both, though the branch's review (the files)
// showed neither.
func TestCommitAllIgnoresAForgedIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, dir := repoForTest(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	blob := strings.TrimSpace(run(t, g, dir, "hash-object", "b.txt"))
	run(t, g, dir, "update-index", "--add", "--cacheinfo", "100644,"+blob+",sneaky.txt")
	run(t, g, dir, "update-index", "--cacheinfo", "100644,"+blob+",a.txt")
	run(t, g, dir, "update-index", "--skip-worktree", "a.txt")
	writeFile(t, filepath.Join(dir, "c.txt"), "the session's work\n")
	if _, files, err := g.CommitAll(ctx, dir, "work"); err != nil || strings.Join(files, " ") != "c.txt" {
		t.Fatalf("CommitAll = %v, %v; want only c.txt", files, err)
	}
	if tree := run(t, g, dir, "ls-tree", "--name-only", "HEAD"); tree != "a.txt\nb.txt\nc.txt\n" {
		t.Fatalf("the commit holds %q", tree)
	}
	if a := run(t, g, dir, "show", "HEAD:a.txt"); a != "a\n" {
		t.Fatalf("the commit's a.txt is %q, not the file on disk", a)
	}
}

// A change a command hid behind a skip-worktree mark (the index says the
// base, the file says otherwise) is in the branch's review all the same,
// as the commit will hold it.
func TestBranchChangesSeesPastMarks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, dir := repoForTest(t, map[string]string{"a.txt": "a\n"})
	base := strings.TrimSpace(run(t, g, dir, "rev-parse", "HEAD"))
	writeFile(t, filepath.Join(dir, "a.txt"), "hidden change\n")
	run(t, g, dir, "update-index", "--skip-worktree", "a.txt")
	files, err := g.BranchChanges(ctx, dir, base)
	if err != nil || len(files) != 1 || files[0].Path != "a.txt" || string(files[0].Now) != "hidden change\n" {
		t.Fatalf("BranchChanges = %+v, %v; want a.txt's hidden change", files, err)
	}
}

func run(t *testing.T, g Git, dir string, args ...string) string {
	t.Helper()
	out, err := g.Run(context.Background(), dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
