package ledger

import (
	"io/fs"
	"strings"
	"testing"
)

// TestRunsCode: the list of what can run code, one case per rule and the
// files next to them that cannot.
func TestRunsCode(t *testing.T) {
	t.Parallel()
	const exe, plain, link = fs.FileMode(0o755), fs.FileMode(0o644), fs.ModeSymlink | 0o777
	tests := []struct {
		path          string
		op            Op
		before, after fs.FileMode
		folder        bool
		want          string // a word of the reason; "" for none
	}{
		{"sub/.git", Created, 0, 0, true, "repository"},
		{"sub/notgit", Created, 0, 0, true, ""},
		{".git/hooks/pre-commit", Created, 0, plain, false, "git hook"},
		{"sub/.git/hooks/post-checkout", Modified, exe, exe, false, "git hook"},
		{".git/modules/lib/hooks/post-merge", Created, 0, plain, false, "git hook"},
		{"sub/.git/hooks/pre-commit.sample", Created, 0, exe, false, ""},
		{".git/config", Modified, plain, plain, false, "git config"},
		{".git/worktrees/w/config.worktree", Created, 0, plain, false, "git config"},
		{".git/info/attributes", Created, 0, plain, false, "attributes"},
		{".git/info/exclude", Modified, plain, plain, false, ""},
		{".git/HEAD", Modified, plain, plain, false, ""},
		{".git/refs/heads/hooks/x", Created, 0, plain, false, ""},
		{".git/objects/ab/cdef", Created, 0, fs.FileMode(0o444), false, ""},
		{"sub/.git", Created, 0, plain, false, ".git file"},
		{".claude/settings.json", Created, 0, plain, false, "Claude Code"},
		{".claude/hooks/check.sh", Modified, plain, plain, false, "Claude Code"},
		{"app/.pilot/skills/s/SKILL.md", Created, 0, plain, false, "Claude Code"},
		{".claude", Created, 0, plain, false, ""},
		{".mcp.json", Created, 0, plain, false, "MCP"},
		{".vscode/mcp.json", Created, 0, plain, false, "MCP"},
		{".cursor/mcp.json", Created, 0, plain, false, "MCP"},
		{".envrc", Modified, plain, plain, false, "direnv"},
		{".vscode/tasks.json", Created, 0, plain, false, "VS Code"},
		{".vscode/settings.json", Created, 0, plain, false, "VS Code"},
		{".vscode/launch.json", Created, 0, plain, false, "VS Code"},
		{".vscode/extensions.json", Created, 0, plain, false, ""},
		{".devcontainer/devcontainer.json", Created, 0, plain, false, "dev container"},
		{".nvim.lua", Created, 0, plain, false, "editor"},
		{".dir-locals.el", Created, 0, plain, false, "editor"},
		{"node_modules/.bin/eslint", Created, 0, link, false, "npm"},
		{"web/node_modules/.bin/tsc", Created, 0, plain, false, "npm"},
		{"node_modules/eslint/lib/api.js", Created, 0, plain, false, ""},
		{".husky/pre-commit", Created, 0, plain, false, "commit"},
		{".pre-commit-config.yaml", Modified, plain, plain, false, "commit"},
		{".yarnrc.yml", Created, 0, plain, false, "yarn"},
		{".npmrc", Modified, plain, plain, false, "npm"},
		{".venv/lib/python3.12/site-packages/evil.pth", Created, 0, plain, false, "Python"},
		{"docs/site-packages.pth", Created, 0, plain, false, ""},
		{".github/workflows/ci.yml", Modified, plain, plain, false, "CI"},
		{"run.sh", Created, 0, exe, false, "executable"},
		{"run.sh", Modified, plain, exe, false, "made executable"},
		{"run.sh", Modified, exe, exe, false, "executable, changed"},
		{"run.sh", Modified, exe, plain, false, ""},
		{"run.sh", Deleted, exe, 0, false, ""},
		{".git/hooks/pre-commit", Deleted, exe, 0, false, ""},
		{"tool", Created, 0, link, false, ""},
		{"main.go", Modified, plain, plain, false, ""},
		{"Makefile", Modified, plain, plain, false, ""},
	}
	for _, tc := range tests {
		got := RunsCode(tc.path, tc.op, tc.before, tc.after, tc.folder)
		if (got == "") != (tc.want == "") || !strings.Contains(got, tc.want) {
			t.Errorf("RunsCode(%s %s %v→%v folder=%v) = %q, want %q", tc.op, tc.path, tc.before, tc.after, tc.folder, got, tc.want)
		}
	}
}
