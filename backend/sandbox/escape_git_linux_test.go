//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/folder"
)

// gitAttempt is a try at planting something in a git folder (which git
// on the host would later run: issue 36, findings 1 and 2) or at
// destroying history without a question (finding 9). lone: it runs in a
// project that is in no repository (the pod holds an empty read-only .git
// there); else in a repository with a registered submodule, mod.
// explained: git's refusal must get the git note from Explain.
type gitAttempt struct {
	attempt
	lone, explained bool
}

func gitCorpus() []gitAttempt {
	a := func(name, script string, explained bool) gitAttempt {
		return gitAttempt{attempt: attempt{name, script, true}, explained: explained}
	}
	l := func(name, script string, explained bool) gitAttempt {
		return gitAttempt{attempt: attempt{name, script, true}, lone: true, explained: explained}
	}
	return []gitAttempt{
		a("a filter in .git/config", `git config filter.ev.clean "touch $MARK" && echo ESCAPED`, true),
		a("an external diff in .git/config", `git config diff.external "touch $MARK" && echo ESCAPED`, true),
		a("fsmonitor appended to .git/config", `printf '[core]\n\tfsmonitor = touch\n' >> .git/config && echo ESCAPED`, true),
		a("an include in .git/config", `git config include.path "$PROJ/inc" && echo ESCAPED`, true),
		a("core.hooksPath", `git config core.hooksPath "$PROJ/hooks" && echo ESCAPED`, true),
		a("config.worktree", `git config extensions.worktreeConfig true && echo ESCAPED`, true),
		a(".git/info/attributes", `mkdir -p .git/info && echo '* filter=ev' >> .git/info/attributes && echo ESCAPED`, true),
		a("a hook", `printf '#!/bin/sh\ntouch $MARK\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && echo ESCAPED`, true),
		a("a hook as a link", `ln -sf "$MARK" .git/hooks/post-checkout && echo ESCAPED`, false),
		a("a hard link to .git/config written from the project", `ln .git/config cfg && echo '[diff] external = x' >> cfg && echo ESCAPED`, false),
		a("a .git moved away and made again", `mv .git .git.old && mkdir .git && echo ESCAPED`, false),
		a(".git removed and made again", `rm -rf .git && git init -q && echo ESCAPED`, false),
		a(".git moved out and replaced by a gitfile", `mv .git "$TMPDIR/g" && echo "gitdir: $TMPDIR/g" > .git && echo ESCAPED`, false),
		a("git init --separate-git-dir in the repository", `git init -q --separate-git-dir "$TMPDIR/sep" && echo ESCAPED`, false),
		a("the index (git add)", `echo more >> a.txt && git add a.txt && echo ESCAPED`, true),
		a("the index (skip-worktree)", `git update-index --skip-worktree a.txt && echo ESCAPED`, true),
		a("a nested repository registered", `git init -q sub && git -C sub -c user.name=m -c user.email=m@m commit -q --allow-empty -m s && git add sub && echo ESCAPED`, true),
		a("a commit", `git -c user.name=m -c user.email=m@m commit -q --allow-empty -m m && echo ESCAPED`, true),
		a("a new branch", `git checkout -q -b other && echo ESCAPED`, true),
		a("a stash", `echo more >> a.txt && git stash && echo ESCAPED`, false), // git 2.39 fails it with no message
		a("reset --hard to an older commit", `git reset -q --hard HEAD~2 && echo ESCAPED`, true),
		a("a ref moved back", `git update-ref refs/heads/main HEAD~2 && echo ESCAPED`, true),
		a("the reflog expired and gc", `git reflog expire --expire=now --all && git gc -q --prune=now && echo ESCAPED`, true),
		a("history destroyed (finding 9)", `git reset -q --hard HEAD~2 && git reflog expire --expire=now --all && git gc -q --prune=now && echo ESCAPED`, true),
		a("a filter in the submodule's config", `git -C mod config filter.ev.clean "touch $MARK" && echo ESCAPED`, true),
		a("a hook in the submodule", `printf '#!/bin/sh\ntouch $MARK\n' > mod/.git/hooks/pre-commit && echo ESCAPED`, true),
		a("the submodule's .git removed", `rm -rf mod/.git && echo ESCAPED`, false),
		l("git init", `git init -q && echo ESCAPED`, true),
		l("git init and a filter", `git init -q . && git config filter.ev.clean "touch $MARK" && echo ESCAPED`, true),
		l("git init --bare .git", `git init -q --bare .git && echo ESCAPED`, true),
		l("a hooks folder in the empty .git", `mkdir .git/hooks && echo ESCAPED`, true),
		l("the empty .git removed, then git init", `rmdir .git && git init -q && echo ESCAPED`, false),
		l("the empty .git moved, then git init", `mv .git g && git init -q && echo ESCAPED`, false),
		l("git init --separate-git-dir", `git init -q --separate-git-dir "$TMPDIR/sep" && echo ESCAPED`, false),
		l("a gitfile in place of the empty .git", `rmdir .git; echo "gitdir: $TMPDIR/sep" > .git && echo ESCAPED`, false),
	}
}

// gitTemplate makes a repository of three commits on main with a
// submodule mod (its own .git folder) registered, and returns it.
func gitTemplate(t *testing.T, home string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := filepath.Join(t.TempDir(), "tpl")
	git := func(in string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = in
		cmd.Env = append(baseEnv(home), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git(dir, "init", "-q", "-b", "main")
	for _, n := range []string{"1", "2"} {
		if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte(n+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git(dir, "add", "a.txt")
		git(dir, "commit", "-qm", n)
	}
	git(dir, "init", "-q", "mod")
	git(filepath.Join(dir, "mod"), "commit", "-q", "--allow-empty", "-m", "s")
	git(dir, "add", "mod")
	git(dir, "commit", "-qm", "3")
	return dir
}

// copyTree copies a folder as it is (cp -a), for a control to run on.
func copyTree(t *testing.T, from string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v\n%s", err, out)
	}
	return to
}

// TestEscapeCorpusGit tries each planting attempt in a folder session's
// pod, as Pilot builds it (the repository's .git and the submodule's
// read-only; in a folder in no repository, the empty read-only .git), and
// checks it failed: no ESCAPED, no marker, the repositories' files
// unchanged, the three commits still there, and the empty .git gone once
// the pod ends. The control: each attempt works outside the sandbox, on
// a copy. On the old pod (no Git) every attempt worked in the sandbox.
func TestEscapeCorpusGit(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	home := t.TempDir()
	tpl := gitTemplate(t, home)
	proj := copyTree(t, tpl)
	lone := filepath.Join(t.TempDir(), "lone")
	if err := os.Mkdir(lone, 0o755); err != nil {
		t.Fatal(err)
	}
	mark := filepath.Join(t.TempDir(), "MARK")
	note := "The project's git repository (.git) is read-only to sandboxed commands."
	inRepo := NewSession(Policy{Project: proj, Home: home,
		Git: GitPaths{ReadOnly: []string{filepath.Join(proj, ".git"), filepath.Join(proj, "mod", ".git")}, Note: note}}) // as git.PodPaths gives them
	defer inRepo.Close()
	inLone := NewSession(Policy{Project: lone, Home: home, Git: GitPaths{Placeholder: filepath.Join(lone, ".git"), Note: note}})
	env := func(dir string) []string {
		return append(baseEnv(home), "MARK="+mark, "PROJ="+dir, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	}
	before, beforeMod := repoState(t, proj, ""), repoState(t, filepath.Join(proj, "mod"), "")
	as := gitCorpus()
	for _, a := range as {
		s, dir := inRepo, proj
		if a.lone {
			s, dir = inLone, lone
		}
		out, _ := run(t, s, dir, env(dir), a.script)
		if strings.Contains(out, "ESCAPED") {
			t.Errorf("planted in git from the sandbox: %s:\n%s", a.name, out)
		}
		if got := Explain(s.Policy(), a.script, out); a.explained && !strings.Contains(strings.Join(got, "\n"), note) {
			t.Errorf("%s: the refusal is not explained as the read-only repository: %q for:\n%s", a.name, got, out)
		}
	}
	if _, err := os.Stat(mark); err == nil {
		t.Errorf("a planted program ran")
	}
	if after := repoState(t, proj, ""); after != before {
		t.Errorf("the repository's .git changed:\nbefore\n%s\nafter\n%s", before, after)
	}
	if after := repoState(t, filepath.Join(proj, "mod"), ""); after != beforeMod {
		t.Errorf("the submodule's .git changed:\nbefore\n%s\nafter\n%s", beforeMod, after)
	}
	cmd := exec.Command("git", "rev-list", "--count", "main")
	cmd.Dir, cmd.Env = proj, baseEnv(home)
	if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "3" {
		t.Errorf("the history of main: %q, %v; want its 3 commits", out, err)
	}
	if !folder.Empty(filepath.Join(lone, ".git")) {
		t.Errorf("the folder in no repository has something in its .git while the pod runs")
	}
	inLone.Close()
	if _, err := os.Lstat(filepath.Join(lone, ".git")); err == nil {
		t.Errorf("the empty .git was left in the folder after its pod ended")
	}

	// The control: outside, on a copy, each attempt works.
	for _, a := range as {
		dir := copyTree(t, tpl)
		if a.lone { // as the host has it while the pod runs
			dir = t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("bash", "-c", a.script)
		cmd.Dir, cmd.Env = dir, append(env(dir), "TMPDIR="+t.TempDir())
		if out, _ := cmd.CombinedOutput(); !strings.Contains(string(out), "ESCAPED") {
			t.Errorf("control: %q did not work outside the sandbox either, so it proves nothing:\n%s", a.name, out)
		}
	}
}
