package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// TestHeadlessWorktreeGit: in a worktree session's sandbox the model's own
// git reads the repository (status, diff, log), while a commit is refused
// by the kernel with the sentence saying the repository is read-only to
// the session's commands and where the branch is committed; the user's
// repository keeps its refs and its objects. The old pod replaced /tmp,
// where the repository's .git lies here, and bound nothing for git, so
// every git command failed with "not a git repository".
func TestHeadlessWorktreeGit(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	home := sandboxHome(t)
	repo := gitProject(t, map[string]string{"notes.txt": "a draft\n"})
	head := strings.TrimSpace(gitOut(t, repo, "rev-parse", "HEAD"))
	branch := strings.TrimSpace(gitOut(t, repo, "symbolic-ref", "HEAD"))
	objects := gitOut(t, repo, "count-objects", "-v")

	calls := []fakellm.ToolCall{
		bashCall("status", "echo changed >> notes.txt && git status --short"),
		bashCall("diff", "git diff"),
		bashCall("log", "git log --oneline"),
		bashCall("commit", "git -c user.name=m -c user.email=m@m commit -qam mine"),
		bashCall("branch", "git branch other"),
	}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: calls, When: &fakellm.When{LastUserContains: "Try"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	data := filepath.Join(home, ".config", "pilot")
	cmd := exec.Command(pilotBinary(t), "-p", "Try git", "--project", repo, "--worktree", "x", "--approve", "edits")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PILOT_HOME=" + data,
		"PILOT_PROVIDER=anthropic", "ANTHROPIC_BASE_URL=" + srv.URL(), "ANTHROPIC_API_KEY=sk-test"}
	code, stdout, stderr := runBin(t, cmd, "")
	if code != 0 {
		t.Fatalf("pilot -p --worktree: exit %d\n%s\n%s", code, stdout, stderr)
	}
	results := map[string]fakellm.ToolResult{}
	for _, r := range srv.Requests() {
		for _, tr := range r.ToolResults {
			results[tr.ToolUseID] = tr
		}
	}
	for _, c := range []struct{ id, want string }{{"status", " M notes.txt"}, {"diff", "+changed"}, {"log", "start"}} {
		if r := results[c.id]; r.IsError || !strings.Contains(r.Content, c.want) {
			t.Errorf("%s: want %q in a successful result: %q", c.id, c.want, r.Content)
		}
	}
	for _, id := range []string{"commit", "branch"} {
		r := results[id]
		if !r.IsError || !strings.Contains(r.Content, "The repository is read-only to commands of a worktree session") ||
			!strings.Contains(r.Content, "Branch view") {
			t.Errorf("%s: want a failure explained as the read-only repository: %q", id, r.Content)
		}
	}
	refs := gitOut(t, repo, "for-each-ref", "--format=%(refname) %(objectname)")
	if want := branch + " " + head + "\nrefs/heads/pilot/x " + head + "\n"; refs != want {
		t.Errorf("the repository's refs changed:\n%s\nwant\n%s", refs, want)
	}
	if after := gitOut(t, repo, "count-objects", "-v"); after != objects {
		t.Errorf("the repository's objects changed:\n%s\nbefore\n%s", after, objects)
	}
	wt := filepath.Join(data, "worktrees", "1", "x")
	if b, _ := os.ReadFile(filepath.Join(wt, "notes.txt")); string(b) != "a draft\nchanged\n" {
		t.Errorf("the worktree's notes.txt = %q", b)
	}
}
