package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// plant is something a repository can hold that makes git run a program
// on the host: prog (which touches the marker, copies its input to its
// output and fails when fail is set) in its configuration, its hooks, or
// a nested repository's. control is a plain git command that runs it, so
// that the plant is known to work.
type plant struct {
	name    string
	set     func(t *testing.T, dir, prog string)
	control []string
}

// gitIn runs plain git (not hardened) in dir, as the user would.
func gitIn(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitIn(t, dir, args...)
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return out
}

// hooks are the hooks git 2.39 runs in what Pilot's git does (commit,
// worktree add and remove, branch, read-tree), and more.
var hooks = []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-checkout", "reference-transaction",
	"post-index-change", "pre-auto-gc", "post-rewrite", "post-merge", "fsmonitor-watchman"}

// plants are the ways a repository makes git run a program (finding 1 of
// issue 36, and finding 2: a nested repository registered as a gitlink).
var plants = []plant{
	{"clean and smudge filters", func(t *testing.T, dir, prog string) {
		for _, kv := range [][2]string{{"filter.ev.clean", prog}, {"filter.ev.smudge", prog}, {"filter.ev.required", "true"}} {
			mustGit(t, dir, "config", kv[0], kv[1])
		}
		writeFile(t, filepath.Join(dir, ".git", "info", "attributes"), "* filter=ev\n")
	}, []string{"status"}},
	{"a filter process", func(t *testing.T, dir, prog string) {
		mustGit(t, dir, "config", "filter.ev.process", prog)
		writeFile(t, filepath.Join(dir, ".gitattributes"), "*.txt filter=ev\n")
	}, []string{"status"}},
	{"a filter in config.worktree", func(t *testing.T, dir, prog string) {
		mustGit(t, dir, "config", "extensions.worktreeConfig", "true")
		mustGit(t, dir, "config", "--worktree", "filter.Ev.clean", prog)
		writeFile(t, filepath.Join(dir, ".git", "info", "attributes"), "* filter=Ev\n")
	}, []string{"status"}},
	{"a filter in an included file", func(t *testing.T, dir, prog string) {
		inc := filepath.Join(filepath.Dir(prog), "included")
		writeFile(t, inc, "[filter \"ev\"]\n\tclean = "+prog+"\n")
		mustGit(t, dir, "config", "include.path", inc)
		writeFile(t, filepath.Join(dir, ".git", "info", "attributes"), "* filter=ev\n")
	}, []string{"status"}},
	{"an external diff", func(t *testing.T, dir, prog string) {
		mustGit(t, dir, "config", "diff.external", prog)
	}, []string{"diff", "HEAD~1"}},
	{"a textconv and a diff command", func(t *testing.T, dir, prog string) {
		mustGit(t, dir, "config", "diff.ev.textconv", prog)
		mustGit(t, dir, "config", "diff.ev2.command", prog)
		writeFile(t, filepath.Join(dir, ".git", "info", "attributes"), "a.txt diff=ev\nb.txt diff=ev2\n")
	}, []string{"diff", "HEAD~1"}},
	{"hooks", func(t *testing.T, dir, prog string) {
		for _, h := range hooks {
			link(t, prog, filepath.Join(dir, ".git", "hooks", h))
		}
	}, []string{"commit", "-q", "--allow-empty", "-m", "control"}},
	{"core.hooksPath", func(t *testing.T, dir, prog string) {
		hd := filepath.Join(filepath.Dir(prog), "hooks")
		for _, h := range hooks {
			link(t, prog, filepath.Join(hd, h))
		}
		mustGit(t, dir, "config", "core.hooksPath", hd)
	}, []string{"commit", "-q", "--allow-empty", "-m", "control"}},
	{"fsmonitor", func(t *testing.T, dir, prog string) {
		mustGit(t, dir, "config", "core.fsmonitor", prog)
	}, []string{"status"}},
	{"a gpg program", func(t *testing.T, dir, prog string) {
		mustGit(t, dir, "config", "commit.gpgSign", "true")
		mustGit(t, dir, "config", "gpg.program", prog)
		mustGit(t, dir, "config", "tag.gpgSign", "true")
	}, []string{"commit", "-q", "--allow-empty", "-m", "control"}},
	{"an ssh signing program", func(t *testing.T, dir, prog string) {
		for _, kv := range [][2]string{{"commit.gpgSign", "true"}, {"gpg.format", "ssh"}, {"gpg.ssh.program", prog}, {"user.signingKey", "key::ssh-ed25519 AAAA"}} {
			mustGit(t, dir, "config", kv[0], kv[1])
		}
	}, []string{"commit", "-q", "--allow-empty", "-m", "control"}},
	{"an editor", func(t *testing.T, dir, prog string) {
		mustGit(t, dir, "config", "core.editor", prog)
		mustGit(t, dir, "config", "sequence.editor", prog)
	}, []string{"commit", "-q", "--allow-empty"}},
	{"a partial clone's lazy fetch", func(t *testing.T, dir, prog string) {
		// b.txt's blob is missing and the promisor remote's upload-pack is
		// prog: git runs it (through the shell) to fetch the blob.
		mustGit(t, dir, "rm", "-q", "b.txt")
		mustGit(t, dir, "commit", "-q", "-m", "no b")
		blob := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD~1:b.txt"))
		objs := filepath.Join(dir, ".git", "objects")
		mustGit(t, dir, "repack", "-q", "-a", "-d")
		keep := mustGit(t, dir, "rev-list", "--objects", "--all")
		var list strings.Builder
		for l := range strings.SplitSeq(keep, "\n") {
			if id, _, _ := strings.Cut(l, " "); id != "" && id != blob {
				list.WriteString(id + "\n")
			}
		}
		old, _ := filepath.Glob(filepath.Join(objs, "pack", "pack-*"))
		cmd := exec.Command("git", "pack-objects", "-q", filepath.Join(objs, "pack", "kept"))
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(list.String())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pack-objects: %v\n%s", err, out)
		}
		for _, p := range old {
			os.Remove(p)
		}
		fails := prog + "-fails" // upload-pack that answers nothing
		writeFile(t, fails, "#!/bin/sh\n"+prog+" </dev/null >/dev/null\nexit 1\n")
		if err := os.Chmod(fails, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, kv := range [][2]string{{"core.repositoryformatversion", "1"}, {"extensions.partialClone", "origin"}, {"remote.origin.url", dir},
			{"remote.origin.promisor", "true"}, {"remote.origin.uploadpack", fails}, {"protocol.file.allow", "always"}} {
			mustGit(t, dir, "config", kv[0], kv[1])
		}
	}, []string{"cat-file", "-p", "HEAD~1:b.txt"}},
	{"a nested repository registered as a gitlink", func(t *testing.T, dir, prog string) {
		sub := filepath.Join(dir, "sub")
		mustGit(t, dir, "init", "-q", "sub")
		writeFile(t, filepath.Join(sub, "s.txt"), "s\n")
		writeFile(t, filepath.Join(sub, ".gitattributes"), "* filter=ev\n")
		mustGit(t, sub, "add", "-A")
		mustGit(t, sub, "commit", "-q", "-m", "s")
		mustGit(t, sub, "config", "filter.ev.clean", prog)
		mustGit(t, sub, "config", "core.fsmonitor", prog)
		mustGit(t, dir, "add", "sub")
		writeFile(t, filepath.Join(dir, ".gitmodules"), "[submodule \"sub\"]\n\tpath = sub\n\turl = ./sub\n\tignore = none\n")
		mustGit(t, dir, "add", ".gitmodules")
		mustGit(t, dir, "commit", "-q", "-m", "sub")
	}, []string{"status"}},
}

// link makes path a link to prog (in a new folder when needed).
func link(t *testing.T, prog, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(prog, path); err != nil {
		t.Fatal(err)
	}
}

// staleness makes each call of stale give times never given before.
var staleness atomic.Int64

// stale gives the files new times (to the second: git compares seconds),
// their content unchanged, so that git must read them again (through a
// clean filter, if one applies).
func stale(t *testing.T, files ...string) {
	t.Helper()
	when := time.Now().Add(-time.Duration(staleness.Add(int64(len(files)))) * time.Minute)
	for _, f := range files {
		when = when.Add(-time.Minute)
		if err := os.Chtimes(f, when, when); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}

// Every operation of package git, the system prompt's git status included, in a
// repository holding each plant, runs none of them; plain git (the
// control) runs each. On the old gitwt (only core.fsmonitor=false) the
// filters, hooks, signing program, lazy fetch and the nested
// repository's filter ran. Each plant is also made after the options of
// the clean repository were kept (configcache.go, with a clock ahead so
// that the new files are not racy): the operations after it run nothing
// either.
func TestHardenedRunsNothingOfTheRepository(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, p := range plants {
		for _, kept := range []bool{false, true} {
			name := p.name
			if kept {
				name += ", options kept from before"
			}
			t.Run(name, func(t *testing.T) { plantThenOperate(t, p, kept) })
		}
	}
}

func plantThenOperate(t *testing.T, p plant, kept bool) {
	t.Parallel()
	ctx := context.Background()
	g, dir := repoForTest(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	mustGit(t, dir, "commit", "-q", "--allow-empty", "-m", "second")
	if kept && runtime.GOOS != "linux" {
		t.Skip("the configuration read's cache stamps files on Linux only")
	}
	if kept {
		g.cache = newConfigCache(func() time.Time { return time.Now().Add(racy + time.Second) })
		if _, err := g.ShortStatus(ctx, dir); err != nil {
			t.Fatal(err)
		}
		if _, hit, _ := g.cache.lookup(cacheKey(g.Path, dir, allowed(dir, nil))); !hit {
			t.Fatal("the clean repository's options were not kept")
		}
	}
	bin := t.TempDir()
	mark := filepath.Join(bin, "ran")
	prog := filepath.Join(bin, "prog")
	writeFile(t, prog, "#!/bin/sh\necho \"$0 $*\" >> '"+mark+"'\ncat\n")
	if err := os.Chmod(prog, 0o755); err != nil {
		t.Fatal(err)
	}
	p.set(t, dir, prog)
	writeFile(t, filepath.Join(dir, "a.txt"), "a changed\n")                  // for the diffs
	stale(t, filepath.Join(dir, "b.txt"), filepath.Join(dir, "sub", "s.txt")) // for the filters
	out, _ := gitIn(t, dir, p.control...)
	if _, err := os.Stat(mark); err != nil {
		t.Fatalf("the control (git %v) did not run the plant: %s", p.control, out)
	}
	os.Remove(mark)
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
	head := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD"))
	wt := filepath.Join(t.TempDir(), "wt")
	ops := []struct {
		name string
		run  func() error
	}{
		{"Toplevel", func() error { _, err := g.Toplevel(ctx, dir); return err }},
		{"Head", func() error { _, err := g.Head(ctx, dir); return err }},
		{"BranchExists", func() error { _, err := g.BranchExists(ctx, dir, "pilot/x"); return err }},
		{"Status", func() error { _, err := g.Status(ctx, dir); return err }},
		{"ShortStatus (the system prompt's)", func() error { _, err := g.ShortStatus(ctx, dir); return err }},
		{"BlobsAt", func() error { _, err := g.BlobsAt(ctx, dir, "HEAD~1", []string{"a.txt", "b.txt"}); return err }},
		{"PodPaths", func() error { _, err := g.PodPaths(ctx, dir); return err }},
		{"AddWorktree", func() error { return g.AddWorktree(ctx, dir, wt, "pilot/x", head) }},
		{"BranchChanges of the worktree", func() error {
			writeFile(t, filepath.Join(wt, "a.txt"), "a in the worktree\n")
			_, err := g.BranchChanges(ctx, wt, head)
			return err
		}},
		{"CommitAll of the worktree", func() error { _, _, err := g.CommitAll(ctx, wt, "wt"); return err }},
		{"BranchChanges of the repository", func() error {
			writeFile(t, filepath.Join(dir, "new.txt"), "new\n")
			_, err := g.BranchChanges(ctx, dir, head)
			return err
		}},
		{"CommitPaths", func() error {
			writeFile(t, filepath.Join(dir, "a.txt"), "a again\n")
			_, _, err := g.CommitPaths(ctx, dir, "paths", []string{"a.txt"})
			return err
		}},
		{"CommitAll of the repository", func() error { _, _, err := g.CommitAll(ctx, dir, "all"); return err }},
		{"MergeFile", func() error { _, _, err := g.MergeFile(ctx, []byte("a\n"), []byte("a\n"), []byte("b\n")); return err }},
		{"RemoveWorktree", func() error { return g.RemoveWorktree(ctx, dir, wt) }},
		{"DeleteBranch", func() error { return g.DeleteBranch(ctx, dir, "pilot/x") }},
	}
	for _, op := range ops {
		stale(t, filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt"), filepath.Join(wt, "a.txt"), filepath.Join(dir, "sub", "s.txt"))
		err := op.run()
		if b, _ := os.ReadFile(mark); len(b) > 0 {
			t.Fatalf("%s ran the repository's program: %s", op.name, b)
		}
		// The lazy fetch is refused (no transport), so what needs the
		// missing blob fails; everything else works.
		if err != nil && !(p.name == "a partial clone's lazy fetch" && strings.Contains(err.Error(), "not allowed")) {
			t.Errorf("%s: %v", op.name, err)
		}
	}
}

// The -c options for a repository's own program keys: its values become
// the neutral one followed by the machine's own (system, global) in their
// order; keys only the machine sets, and other keys, are left alone;
// protocol.<name>.allow is never, whoever sets it; a key holding '=' is
// refused.
func TestNeutralise(t *testing.T) {
	t.Parallel()
	list := parseScoped("system\x00file:/etc/gitconfig\x00credential.helper\nstore\x00" +
		"global\x00file:/home/.gitconfig\x00gpg.program\ngpg2\x00" +
		"global\x00file:/home/.gitconfig\x00commit.gpgsign\x00" +
		"global\x00file:/home/.gitconfig\x00diff.tool\nmeld\x00" +
		"local\x00file:/repo/.git/config\x00credential.helper\nevil\x00" +
		"local\x00file:/repo/.git/config\x00commit.gpgsign\ntrue\x00" +
		"local\x00file:/repo/.git/config\x00gpg.program\nevil\x00" +
		"local\x00file:/repo/.git/config\x00filter.Ev.clean\nevil\x00" +
		"worktree\x00file:/repo/.git/config.worktree\x00diff.x.y.textconv\nevil\x00" +
		"local\x00file:/repo/.git/config\x00pager.status\nevil\x00" +
		"local\x00file:/repo/.git/config\x00user.name\nT\x00" +
		"global\x00file:/home/.gitconfig\x00protocol.file.allow\nalways\x00" +
		"local\x00file:/repo/.git/config\x00core.editor\nevil\nwith a line\x00")
	got, err := neutralise(list)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"-c", "credential.helper=", "-c", "credential.helper=store",
		"-c", "commit.gpgsign=false", "-c", "commit.gpgsign",
		"-c", "gpg.program=gpg", "-c", "gpg.program=gpg2",
		"-c", "filter.Ev.clean=",
		"-c", "diff.x.y.textconv=",
		"-c", "pager.status=false",
		"-c", "protocol.file.allow=never",
		"-c", "core.editor=:",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("neutralise =\n%q\nwant\n%q", got, want)
	}
	if _, err := neutralise(parseScoped("local\x00file:.git/config\x00filter.a=b.clean\nevil\x00")); err == nil || !strings.Contains(err.Error(), "git config --unset") {
		t.Fatalf("a key holding '=': %v", err)
	}
}
