package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"pilot/backend/sandbox"
)

// homeCanary is the text of the user instruction file in the home folder
// TestMain gives the process: it stands for the developer's own
// ~/.claude/CLAUDE.md, which no test's model may see (newHarness checks
// every request).
const homeCanary = "THE DEVELOPER'S OWN INSTRUCTIONS, NOT A TEST'S"

func TestMain(m *testing.M) {
	sandbox.RunPodIfAsked() // the sandboxed commands' pods run this test binary
	os.Exit(run(m))
}

// run runs the tests with HOME at a folder holding homeCanary, so a test
// whose agent falls back to the process's home folder is caught.
func run(m *testing.M) int {
	home, err := os.MkdirTemp("", "pilot-agent-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "making the tests' home folder:", err)
		return 1
	}
	defer os.RemoveAll(home)
	user := filepath.Join(home, ".claude", "CLAUDE.md")
	if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "making the tests' home folder:", err)
		return 1
	}
	if err := os.WriteFile(user, []byte(homeCanary), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "making the tests' home folder:", err)
		return 1
	}
	if err := os.Setenv("HOME", home); err != nil {
		fmt.Fprintln(os.Stderr, "setting the tests' home folder:", err)
		return 1
	}
	return m.Run()
}
