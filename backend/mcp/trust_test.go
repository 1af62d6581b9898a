package mcp

import (
	"pilot/backend/trustfile"

	"os"
	"path/filepath"
	"testing"
)

// TestTrustWorktree: the project's trust reaches a worktree with the very
// same .mcp.json and nothing else; Forget drops the worktree's entry.
func TestTrustWorktree(t *testing.T) {
	t.Parallel()
	const cfg = `{"mcpServers": {"a": {"command": "true"}}}`
	for _, c := range []struct {
		what              string
		trusted           bool
		project, worktree string
		want              bool
	}{
		{"same file, trusted", true, cfg, cfg, true},
		{"same file, not trusted", false, cfg, cfg, false},
		{"the worktree's differs", true, cfg, `{"mcpServers": {}}`, false},
		{"no file in the worktree", true, cfg, "", false},
		{"no file in the project", true, "", cfg, false},
	} {
		t.Run(c.what, func(t *testing.T) {
			t.Parallel()
			home, proj, wt := t.TempDir(), t.TempDir(), t.TempDir()
			for dir, text := range map[string]string{proj: c.project, wt: c.worktree} {
				if text != "" {
					os.WriteFile(filepath.Join(dir, ProjectFile), []byte(text), 0o644)
				}
			}
			if c.trusted && c.project != "" {
				if err := Trust(home, proj, trustfile.Hash([]byte(c.project))); err != nil {
					t.Fatal(err)
				}
			}
			got, err := TrustWorktree(home, proj, wt)
			if err != nil || got != c.want {
				t.Fatalf("TrustWorktree = %v, %v; want %v", got, err, c.want)
			}
			if ok, _ := Trusted(home, wt, trustfile.Hash([]byte(c.worktree))); c.worktree != "" && ok != c.want {
				t.Fatalf("Trusted(worktree) = %v, want %v", ok, c.want)
			}
			if err := Forget(home, wt); err != nil {
				t.Fatal(err)
			}
			if WasTrusted(home, wt) {
				t.Fatal("Forget left the worktree's entry")
			}
			if c.trusted && c.project != "" && !WasTrusted(home, proj) {
				t.Fatal("Forget of the worktree dropped the project's trust")
			}
		})
	}
}
