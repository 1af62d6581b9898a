package git

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// PodPaths names every git folder a command could write: the project's
// .git, the worktree's own folder and the repository's common one for a
// worktree, a submodule's .git (a folder, or a gitfile and what it names);
// a folder with no .git (or an empty one) gets the placeholder, and with
// no git only the file system is looked at.
func TestPodPaths(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, dir := repoForTest(t, map[string]string{"a.txt": "a\n"})
	dir, _ = filepath.EvalSymlinks(dir)
	git := filepath.Join(dir, ".git")
	head, err := g.Head(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(t.TempDir(), "fix")
	if err := g.AddWorktree(ctx, dir, wt, "pilot/fix", head); err != nil {
		t.Fatal(err)
	}
	wt, _ = filepath.EvalSymlinks(wt)
	// A nested repository with its own .git folder, and one whose .git is a
	// gitfile naming a folder inside the project, both registered.
	for _, sub := range []string{"inner", "absorbed"} {
		if _, err := g.Run(ctx, filepath.Join(dir), "init", "-q", sub); err != nil {
			t.Fatal(err)
		}
		if _, err := g.Run(ctx, filepath.Join(dir, sub), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "s"); err != nil {
			t.Fatal(err)
		}
	}
	moved := filepath.Join(dir, "elsewhere.git")
	if err := os.Rename(filepath.Join(dir, "absorbed", ".git"), moved); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "absorbed", ".git"), "gitdir: ../elsewhere.git\n")
	if _, err := g.Run(ctx, dir, "add", "inner", "absorbed"); err != nil {
		t.Fatal(err)
	}
	lone := t.TempDir()
	empty := t.TempDir()
	if err := os.Mkdir(filepath.Join(empty, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	below := filepath.Join(dir, "deep")
	if err := os.Mkdir(below, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name        string
		g           Git
		dir         string
		want        []string
		placeholder string
	}{
		{"repository", g, dir, []string{git, filepath.Join(dir, "inner", ".git"), filepath.Join(dir, "absorbed", ".git"), moved}, ""},
		{"worktree", g, wt, []string{filepath.Join(wt, ".git"), filepath.Join(git, "worktrees", "fix"), git}, ""},
		{"below the top", g, below, []string{git}, filepath.Join(below, ".git")},
		{"no repository", g, lone, nil, filepath.Join(lone, ".git")},
		{"an empty .git", g, empty, nil, filepath.Join(empty, ".git")},
		{"no git", Git{}, dir, []string{git}, ""},
	} {
		p, err := c.g.PodPaths(ctx, c.dir)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := slices.Clone(p.ReadOnly)
		slices.Sort(got)
		slices.Sort(c.want)
		if !slices.Equal(got, c.want) || p.Placeholder != c.placeholder {
			t.Errorf("%s: PodPaths = %q, placeholder %q; want %q, %q", c.name, p.ReadOnly, p.Placeholder, c.want, c.placeholder)
		}
	}
}
