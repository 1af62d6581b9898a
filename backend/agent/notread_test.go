package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// Instruction files that lead out of the project (a link to the
// environment, to a secret) are not sent to the model: the first request
// holds neither, and a notice names each file and what to do, once while
// they stay the same. A link inside the project is followed.
func TestInstructionFilesThroughRoot(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{{Text: "Done.", Repeat: true}}},
		setup{files: map[string]string{"docs/AGENTS.md": "Use tabs."}})
	secret := filepath.Join(t.TempDir(), "id_rsa")
	if err := os.WriteFile(secret, []byte("PRIVATE-KEY-CANARY"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"AGENTS.md": "docs/AGENTS.md", "CLAUDE.md": "/proc/self/environ", "progress.md": secret} {
		if err := os.Symlink(target, filepath.Join(h.dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if r := h.turn("hello"); r != ReasonEndTurn {
			t.Fatalf("reason %s", r)
		}
	}
	sys := h.srv.Requests()[0].System
	if !strings.Contains(sys, "Use tabs.") {
		t.Errorf("the link inside the project was not followed:\n%s", sys)
	}
	if strings.Contains(sys, "PRIVATE-KEY-CANARY") || strings.Contains(sys, "PATH=") || strings.Contains(sys, "# CLAUDE.md") {
		t.Errorf("a link out of the project reached the model:\n%s", sys)
	}
	ns := h.rec.notices("files")
	want := []string{
		"CLAUDE.md was not read: it is a link to /proc/self/environ, outside the project folder. Replace the link with the file itself.",
		"progress.md was not read: it is a link to " + secret + ", outside the project folder. Replace the link with the file itself.",
	}
	if strings.Join(ns, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices %q, want %q", ns, want)
	}
}
