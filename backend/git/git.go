// Package git is Pilot's use of the user's git: the `git` executable
// found on PATH, run with the allowlisted environment (childenv), for
// worktrees, branches, diffs and commits. It is the user's own git, with
// the configuration of their machine (system and global), but never a
// program the repository names: every command runs hardened (harden.go),
// so that nothing in the project folder, .git included, runs on the host.
package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"pilot/backend/childenv"
	"pilot/backend/hostexec"
)

// MinVersion is the oldest git Pilot runs: 2.26 added what hardening
// needs (`git config --show-scope`, `--pathspec-from-file`); worktrees
// came with 2.5.
var MinVersion = [2]int{2, 26}

// ErrNoGit: there is no git on PATH.
var ErrNoGit = errors.New("git was not found on PATH: install git (on Debian or Ubuntu: sudo apt install git)")

// Git is the git executable and its version.
type Git struct {
	Path    string
	Version string       // "2.39.5"
	cache   *configCache // nil: the process-wide one (configcache.go)
}

var versionRE = regexp.MustCompile(`git version (\d+)\.(\d+)(\.\d+)?`)

// Find looks git up on PATH and checks that it is new enough. Its
// `git --version` runs in / (it reads no repository).
func Find(ctx context.Context) (Git, error) {
	p, err := hostexec.LookPath("git")
	var skip *hostexec.SkippedError
	switch {
	case errors.As(err, &skip):
		return Git{}, err
	case err != nil:
		return Git{}, ErrNoGit
	}
	g := Git{Path: p}
	out, err := g.run(ctx, "/", nil, nil, fixedArgs, "--version")
	if err != nil {
		return Git{}, fmt.Errorf("%s --version failed: %w", p, err)
	}
	m := versionRE.FindStringSubmatch(out)
	if m == nil {
		return Git{}, fmt.Errorf("%s --version printed %q, not a git version", p, strings.TrimSpace(out))
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	g.Version = m[1] + "." + m[2] + m[3]
	if major < MinVersion[0] || major == MinVersion[0] && minor < MinVersion[1] {
		return g, fmt.Errorf("git %s at %s is older than %d.%d, which Pilot needs to run git without the programs a repository's own configuration names: update git", g.Version, p, MinVersion[0], MinVersion[1])
	}
	return g, nil
}

// Run runs git in dir, hardened for dir's repository (see harden.go), and
// returns its standard output. Its error carries git's own message
// (stderr).
func (g Git) Run(ctx context.Context, dir string, args ...string) (string, error) {
	return g.RunInput(ctx, dir, nil, args...)
}

// RunInput is Run with stdin.
func (g Git) RunInput(ctx context.Context, dir string, stdin []byte, args ...string) (string, error) {
	r, err := g.at(ctx, dir)
	if err != nil {
		return "", err
	}
	return r.runInput(ctx, stdin, args...)
}

// run runs git with pre before args (hardening's options) in dir, and env
// over the allowlisted environment. Git never asks on a terminal
// (GIT_TERMINAL_PROMPT=0) and speaks English (LC_ALL=C) so its output can
// be read.
func (g Git) run(ctx context.Context, dir string, stdin []byte, env map[string]string, pre []string, args ...string) (string, error) {
	stdout, stderr, err := g.exec(ctx, dir, stdin, env, pre, args...)
	if err != nil {
		return stdout, failed(args, stderr, err)
	}
	return stdout, nil
}

// failed is the error of a git that failed: git's own message (stderr),
// or how it ended when it said nothing.
func failed(args []string, stderr string, err error) error {
	msg := strings.TrimSpace(stderr)
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
}

// exec is run that returns git's standard error and its exit as they are.
func (g Git) exec(ctx context.Context, dir string, stdin []byte, env map[string]string, pre []string, args ...string) (string, string, error) {
	cmd := exec.CommandContext(ctx, g.Path, append(append([]string{}, pre...), args...)...)
	cmd.Dir = dir
	// What git starts in turn (ssh, a credential helper) is not found in
	// the repository nor on a relative PATH entry.
	cmd.Env = hostexec.Env(allowed(dir, env), dir)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// allowed is the allowlisted environment of a git run in dir (see run),
// with env over it.
func allowed(dir string, env map[string]string) []string {
	own := map[string]string{"GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
	for k, v := range env {
		own[k] = v
	}
	return childenv.Env(os.Environ(), dir, own)
}

// Toplevel returns the top folder of the git work tree dir is in, or a
// sentence saying dir is not in one and how to start.
func (g Git) Toplevel(ctx context.Context, dir string) (string, error) {
	r, err := g.at(ctx, dir)
	if err != nil {
		return "", err
	}
	out, err := r.run(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("%s is not in a git repository, so it cannot have worktrees: run `git init` there and make a first commit", dir)
	}
	return strings.TrimSpace(out), nil
}
