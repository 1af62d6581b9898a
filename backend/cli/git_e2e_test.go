//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"pilot/backend/internal/fakellm"
)

// Issue 36, findings 1, 2 and 9, with the production binary: what a
// sandboxed command tries to plant in git is refused, and what a
// repository holds already (cloned, or planted before the fix) never
// runs on the host, whatever Pilot does with it next.

// gitUser is who runs the binary: the tests' own user, or uid 65534 when
// the tests run as root (the finding was seen as both).
type gitUser struct {
	name string
	cred *syscall.Credential // nil: the tests' own user
}

func gitUsers() []gitUser {
	return []gitUser{{name: "own user"}, {name: "uid 65534", cred: &syscall.Credential{Uid: 65534, Gid: 65534}}}
}

// check skips the run as another user when the tests cannot switch to it.
func (u gitUser) check(t *testing.T) {
	t.Helper()
	if u.cred != nil && os.Geteuid() != 0 {
		t.Skip("the tests do not run as root, so they cannot run the binary as uid 65534")
	}
}

// dir makes a folder the user can reach (a 0755 folder of its own, not
// under the tests' 0700 temporary folders); own hands it over.
func (u gitUser) dir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "pilot-git-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// own gives the folders, with all they hold, to the user.
func (u gitUser) own(t *testing.T, dirs ...string) {
	t.Helper()
	if u.cred == nil {
		return
	}
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, int(u.cred.Uid), int(u.cred.Gid))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// pilot is the binary with args, as the user, with HOME and PILOT_HOME
// in home and the fake model server.
func (u gitUser) pilot(t *testing.T, srv *fakellm.Server, home string, args ...string) *exec.Cmd {
	t.Helper()
	bin := pilotBinary(t)
	if u.cred != nil {
		if err := os.Chmod(filepath.Dir(bin), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PILOT_HOME=" + filepath.Join(home, ".config", "pilot"),
		"PILOT_PROVIDER=anthropic", "ANTHROPIC_BASE_URL=" + srv.URL(), "ANTHROPIC_API_KEY=sk-test"}
	cmd.Dir = home
	if u.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: u.cred}
	}
	return cmd
}

// markProg makes a program that records each run of it in a file any user
// may write (and copies its input to its output, as a filter does), and
// returns the program and the record.
func markProg(t *testing.T) (prog, record string) {
	t.Helper()
	d, err := os.MkdirTemp("", "pilot-git-mark-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o777); err != nil {
		t.Fatal(err)
	}
	prog, record = filepath.Join(d, "prog"), filepath.Join(d, "ran")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho \"$0 $*\" >> '"+record+"'\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return prog, record
}

// noRun fails when the marker's program ran.
func noRun(t *testing.T, record, after string) {
	t.Helper()
	if b, err := os.ReadFile(record); err == nil {
		t.Fatalf("after %s, the repository's program ran on the host: %s", after, b)
	}
}

// plainGit runs the tests' own git (not Pilot's) in dir, whoever owns it.
func plainGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "safe.directory=*"}, args...)...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// turn runs one headless turn in which the scripted model makes calls,
// and returns each call's result by id and the system prompt it got.
func (u gitUser) turn(t *testing.T, home, mode string, args []string, calls ...fakellm.ToolCall) (map[string]fakellm.ToolResult, string) {
	t.Helper()
	script := fakellm.Script{Turns: []fakellm.Turn{{Text: "Done.", Repeat: true}}}
	if len(calls) > 0 {
		script = fakellm.Script{Turns: []fakellm.Turn{
			{ToolCalls: calls, When: &fakellm.When{LastUserContains: "Try"}},
			{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
		}}
	}
	srv := fakellm.New(script)
	defer srv.Close()
	cmd := u.pilot(t, srv, home, append([]string{"-p", "Try the commands", "--approve", mode}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pilot -p --approve %s %v: %v\n%s", mode, args, err, stderr.String())
	}
	results := map[string]fakellm.ToolResult{}
	system := ""
	for _, r := range srv.Requests() {
		if system == "" {
			system = r.System
		}
		for _, tr := range r.ToolResults {
			results[tr.ToolUseID] = tr
		}
	}
	if len(results) != len(calls) {
		t.Fatalf("%d results for %d calls\n%s", len(results), len(calls), stderr.String())
	}
	return results, system
}

// refusedAsGit checks that a command failed and its result says the
// repository is read-only and how to write it anyway.
func refusedAsGit(t *testing.T, id string, r fakellm.ToolResult, note string) {
	t.Helper()
	if !r.IsError || !strings.Contains(r.Content, note) || !strings.Contains(r.Content, "sandbox: false") {
		t.Errorf("%s: want a failure explained as the read-only repository (%q, sandbox: false): %q", id, note, r.Content)
	}
}

const folderNote = "The project's git repository (.git) is read-only to sandboxed commands"

// (a) Under --approve edits a sandboxed command tries to plant filters,
// an external diff, attributes, a hook and a hooks path in .git, and, in
// a folder in no repository, to make one with a filter: each is refused,
// the model's result says why and how to ask, nothing changed in .git, no
// .git is left in the folder; the next turns' system prompt git status
// (--approve none) runs nothing. On c88f239 every plant was written and
// the next turn's git status ran the filter.
func TestHeadlessGitPlantingRefused(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	for _, u := range gitUsers() {
		t.Run(u.name, func(t *testing.T) {
			t.Parallel()
			u.check(t)
			home, repo, lone := u.dir(t), gitProjectIn(t, u.dir(t)), filepath.Join(u.dir(t), "lone")
			if err := os.MkdirAll(lone, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(lone, "a.txt"), []byte("a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			prog, record := markProg(t)
			config, _ := os.ReadFile(filepath.Join(repo, ".git", "config"))
			u.own(t, home, repo, lone)

			results, _ := u.turn(t, home, "edits", []string{"--project", repo},
				bashCall("config", fmt.Sprintf("git config filter.ev.clean %q && git config diff.external %q", prog, prog)),
				bashCall("attributes", `mkdir -p .git/info && echo '* filter=ev' >> .git/info/attributes`),
				bashCall("hook", fmt.Sprintf(`printf '#!/bin/sh\n%s\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`, prog)),
				bashCall("hookspath", "git config core.hooksPath .hooks"))
			for id, r := range results {
				refusedAsGit(t, id, r, folderNote)
			}
			results, _ = u.turn(t, home, "edits", []string{"--project", lone},
				bashCall("init", fmt.Sprintf(`git init -q && git config filter.ev.clean %q && echo '* filter=ev' > .git/info/attributes`, prog)))
			refusedAsGit(t, "init", results["init"], folderNote)

			if after, _ := os.ReadFile(filepath.Join(repo, ".git", "config")); !bytes.Equal(after, config) {
				t.Errorf(".git/config changed:\n%s", after)
			}
			for _, p := range []string{filepath.Join(repo, ".git", "hooks", "pre-commit"), filepath.Join(repo, ".git", "info", "attributes"), filepath.Join(lone, ".git")} {
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("%s exists after the session", p)
				}
			}
			for _, dir := range []string{repo, lone} {
				stale(t, filepath.Join(dir, "notes.txt"), filepath.Join(dir, "a.txt"))
				_, system := u.turn(t, home, "none", []string{"--project", dir})
				noRun(t, record, "the next turn in "+dir)
				if dir == repo && !strings.Contains(system, "## ") {
					t.Errorf("the system prompt shows no git status:\n%s", system)
				}
			}
		})
	}
}

// (d) Finding 9: in a folder session a sandboxed command cannot destroy
// history (reset --hard three commits back, the reflog expired, gc): it
// is refused with the sentence, and the four commits stay. On c88f239 it
// ran without a question and left one commit.
func TestHeadlessGitHistoryKept(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	u := gitUser{name: "own user"}
	home, repo := u.dir(t), gitProjectIn(t, u.dir(t))
	for i := 2; i <= 4; i++ {
		if err := os.WriteFile(filepath.Join(repo, "notes.txt"), []byte(fmt.Sprintf("version %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		plainGit(t, repo, "commit", "-qam", fmt.Sprint(i))
	}
	results, _ := u.turn(t, home, "edits", []string{"--project", repo},
		bashCall("destroy", "git reset --hard HEAD~3 && git reflog expire --expire=now --all && git gc --prune=now"))
	refusedAsGit(t, "destroy", results["destroy"], folderNote)
	if n := strings.TrimSpace(plainGit(t, repo, "rev-list", "--count", "HEAD")); n != "4" {
		t.Errorf("HEAD has %s commits, want the 4", n)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "notes.txt")); string(b) != "version 4\n" {
		t.Errorf("notes.txt = %q", b)
	}
}

// gitProjectIn is gitProject in a folder of parent.
func gitProjectIn(t *testing.T, parent string) string {
	t.Helper()
	dir := filepath.Join(parent, "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("a draft\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plainGit(t, dir, "init", "-q")
	plainGit(t, dir, "add", "-A")
	plainGit(t, dir, "commit", "-q", "-m", "start")
	return dir
}
