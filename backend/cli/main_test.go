package cli

import (
	"os"
	"testing"

	"pilot/backend/confine"
	"pilot/backend/internal/mcptest"
)

func TestMain(m *testing.M) {
	confine.RunPodIfAsked() // pilot doctor's proxy check starts this binary as a pod
	mcptest.MaybeServe()    // the interrupt tests start this binary as an MCP server
	os.Exit(m.Run())
}
