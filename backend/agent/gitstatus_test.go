package agent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The git status of the system prompt runs no command the repository's
// config names (core.fsmonitor): on the old code the hook ran, with
// Pilot's whole environment, keys included. git itself now runs in
// childenv's environment.
func TestGitStatusRunsNoRepositoryCommand(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("GROQ_API_KEY", "key-of-groq-for-git-0123456789")
	dir := t.TempDir()
	mark := filepath.Join(dir, "MARK")
	hook := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nenv > "+mark+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"config", "core.fsmonitor", hook}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	st := gitStatus(context.Background(), dir)
	if !strings.Contains(st, "##") {
		t.Fatalf("git status: %q", st)
	}
	if b, err := os.ReadFile(mark); err == nil {
		t.Errorf("core.fsmonitor ran; its environment:\n%s", b)
	}
}

// Nor a clean filter of the repository's config, nor one of a nested
// repository registered as a gitlink (git status would run `git status`
// inside it, under its own config): plain git status runs both (the
// control); the old system prompt's did too (issue 36, findings 1 and 2).
func TestGitStatusRunsNoFilter(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	bin := t.TempDir()
	mark := filepath.Join(bin, "MARK")
	prog := filepath.Join(bin, "filter.sh")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho \"$0\" >> "+mark+"\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, nested := range []bool{false, true} {
		dir := t.TempDir()
		repo := dir
		if nested {
			repo = filepath.Join(dir, "sub")
		}
		git := func(in string, args ...string) {
			t.Helper()
			cmd := exec.Command("git", args...)
			cmd.Dir = in
			cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		git(dir, "init", "-q")
		if err := os.MkdirAll(repo, 0o755); err != nil {
			t.Fatal(err)
		}
		if nested {
			git(repo, "init", "-q")
		}
		for name, text := range map[string]string{"a.txt": "a\n", ".gitattributes": "* filter=ev\n"} {
			if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git(repo, "add", "-A")
		git(repo, "commit", "-qm", "one")
		git(repo, "config", "filter.ev.clean", prog)
		if nested {
			git(dir, "add", "sub")
			git(dir, "commit", "-qm", "gitlink")
		}
		touch := func() {
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(filepath.Join(repo, "a.txt"), old, old); err != nil {
				t.Fatal(err)
			}
		}
		touch()
		git(dir, "status", "--short")
		if _, err := os.Stat(mark); err != nil {
			t.Fatalf("nested %v: plain git status did not run the filter (the control)", nested)
		}
		os.Remove(mark)
		touch()
		if st := gitStatus(context.Background(), dir); !strings.Contains(st, "##") {
			t.Fatalf("nested %v: git status: %q", nested, st)
		}
		if b, err := os.ReadFile(mark); err == nil {
			t.Errorf("nested %v: the system prompt's git status ran the filter: %s", nested, b)
		}
	}
}
