package agent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
