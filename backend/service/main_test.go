package service

import (
	"fmt"
	"os"
	"testing"

	"pilot/backend/internal/mcptest"
	"pilot/backend/sandbox"
)

func TestMain(m *testing.M) {
	mcptest.MaybeServe()    // the MCP tests start this binary as their server
	sandbox.RunPodIfAsked() // and the sandboxed commands' pods
	code := run(m)
	if benchTree.dir != "" {
		os.RemoveAll(benchTree.dir)
	}
	os.Exit(code)
}

// run runs the tests with HOME at an empty folder: a test whose face
// gives no HOME has an agent that falls back to the process's home, which
// must not be the developer's own (~/.claude/CLAUDE.md, skills, settings).
func run(m *testing.M) int {
	home, err := os.MkdirTemp("", "pilot-service-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "making the tests' home folder:", err)
		return 1
	}
	defer os.RemoveAll(home)
	if err := os.Setenv("HOME", home); err != nil {
		fmt.Fprintln(os.Stderr, "setting the tests' home folder:", err)
		return 1
	}
	return m.Run()
}
