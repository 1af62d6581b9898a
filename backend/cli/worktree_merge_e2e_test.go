package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pilot/backend/git"
	"pilot/backend/internal/fakellm"
	"pilot/backend/paths"
	"pilot/backend/store"
	"pilot/backend/wire"
)

const twelveLines = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n"

// worktreeSessionForCLI makes a project in git, a worktree of it on
// pilot/x whose notes.txt changes lines 2 and 11 (two hunks), and a
// worktree session in home's database; it returns the project, the
// session id and the worktree.
func worktreeSessionForCLI(t *testing.T, home string) (string, int64, string) {
	t.Helper()
	ctx := context.Background()
	g, err := git.Find(ctx)
	if err != nil {
		t.Skip(err)
	}
	proj := tempProject(t, map[string]string{"notes.txt": twelveLines})
	wt := filepath.Join(t.TempDir(), "x")
	for _, args := range [][]string{{"init", "-q"}, {"config", "user.email", "t@example.com"}, {"config", "user.name", "T"},
		{"add", "-A"}, {"commit", "-q", "-m", "base"}, {"worktree", "add", "-q", "-b", "pilot/x", wt}} {
		if _, err := g.Run(ctx, proj, args...); err != nil {
			t.Fatal(err)
		}
	}
	base, err := g.Run(ctx, proj, "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	branch := strings.Replace(strings.Replace(twelveLines, "two\n", "TWO\n", 1), "eleven\n", "ELEVEN\n", 1)
	if err := os.WriteFile(filepath.Join(wt, "notes.txt"), []byte(branch), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, paths.DB(home))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Projects.Touch(ctx, proj)
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.Sessions.Create(ctx, store.NewSession{ProjectID: p.ID, Worktree: store.Worktree{Path: wt, Branch: "pilot/x", Base: strings.TrimSpace(base)}})
	if err != nil {
		t.Fatal(err)
	}
	return proj, s.ID, wt
}

// TestWorktreeMergeBinary: the real binary refuses a merge over the
// user's uncommitted change (exit 1, the file untouched), refuses a hunk
// the branch does not have (exit 2), and merges hunk 1 of 2 (exit 0).
func TestWorktreeMergeBinary(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{})
	defer srv.Close()
	home := t.TempDir()
	proj, id, _ := worktreeSessionForCLI(t, home)
	notes := filepath.Join(proj, "notes.txt")
	mine := strings.Replace(twelveLines, "six\n", "my six\n", 1)
	if err := os.WriteFile(notes, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	sid := strconv.FormatInt(id, 10)
	run := func(args ...string) (int, string, string) {
		cmd := command(t, srv, home, append([]string{"worktree", "merge"}, args...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
	}
	code, out, errOut := run(sid)
	if code != 1 || !strings.Contains(out, "conflict  notes.txt: You changed notes.txt") || !strings.Contains(errOut, "--force") {
		t.Fatalf("merge over an uncommitted change: exit %d\n%s\n%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(notes); string(b) != mine {
		t.Fatalf("the refused merge changed notes.txt: %q", b)
	}
	code, out, errOut = run(sid, "--json")
	refused := decodeStrict[wire.WorktreeMerge](t, out)
	if code != 1 || refused.SessionID != id || refused.Branch != "pilot/x" || refused.MergeSessionID != 0 || len(refused.Merged) != 0 ||
		len(refused.Conflicts) != 1 || !strings.HasPrefix(refused.Conflicts[0].Why, "You changed notes.txt") ||
		!strings.Contains(refused.Message, "nothing was written") || !strings.Contains(errOut, "--force") {
		t.Fatalf("merge --json over an uncommitted change: exit %d\n%+v\n%s", code, refused, errOut)
	}
	for _, bad := range [][]string{{sid, "--hunks", "3"}, {sid, "--hunks", "x"}, {"nope"}, {"999"}} {
		if code, out, errOut := run(bad...); code != 2 {
			t.Errorf("worktree merge %v: exit %d, want 2\n%s\n%s", bad, code, out, errOut)
		}
	}
	if err := os.WriteFile(notes, []byte(twelveLines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(sid, "--hunks", "1")
	if code != 0 || !strings.Contains(out, "Merged 1 file of branch pilot/x") {
		t.Fatalf("merging hunk 1: exit %d\n%s\n%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(notes); string(b) != strings.Replace(twelveLines, "two\n", "TWO\n", 1) {
		t.Fatalf("after merging hunk 1 of 2, notes.txt = %q", b)
	}
	gitOut(t, proj, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "hunk 1")
	code, out, errOut = run(sid, "--hunks", "2", "--json")
	merged := decodeStrict[wire.WorktreeMerge](t, out)
	if code != 0 || merged.SessionID != id || merged.MergeSessionID == 0 || merged.MergeSessionID == id ||
		strings.Join(merged.Merged, ",") != "notes.txt" || len(merged.Conflicts) != 0 || !strings.HasPrefix(merged.Message, "Merged 1 file of branch pilot/x") || errOut != "" {
		t.Fatalf("merge --hunks 2 --json: exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestWorktreeMergeBinaryAndLink: `pilot worktree merge` brings a binary
// file, a symbolic link and an executable bit of the branch into the
// project folder with the text (exit 0), where the old binary refused the
// whole merge (exit 1, "copy it by hand", nothing written).
func TestWorktreeMergeBinaryAndLink(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{})
	defer srv.Close()
	home := t.TempDir()
	proj, id, wt := worktreeSessionForCLI(t, home)
	if err := os.WriteFile(filepath.Join(wt, "logo.bin"), []byte("\x89PNG\x00\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("notes.txt", filepath.Join(wt, "readme")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(wt, "notes.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runBin(t, command(t, srv, home, "worktree", "merge", strconv.FormatInt(id, 10), "--json"), "")
	res := decodeStrict[wire.WorktreeMerge](t, out)
	if code != 0 || strings.Join(res.Merged, " ") != "logo.bin notes.txt readme" || len(res.Conflicts) != 0 {
		t.Fatalf("merge: exit %d\n%s\n%s", code, out, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(proj, "logo.bin")); err != nil || string(b) != "\x89PNG\x00\x01" {
		t.Errorf("logo.bin = %q, %v", b, err)
	}
	if target, err := os.Readlink(filepath.Join(proj, "readme")); err != nil || target != "notes.txt" {
		t.Errorf("readme is not the link: %q, %v", target, err)
	}
	if fi, err := os.Stat(filepath.Join(proj, "notes.txt")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("notes.txt is not executable: %v, %v", fi.Mode(), err)
	}
}
