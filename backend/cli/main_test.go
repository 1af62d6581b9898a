package cli

import (
	"os"
	"testing"

	"pilot/backend/internal/mcptest"
	"pilot/backend/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.RunPodIfAsked() // pilot doctor's proxy check starts this binary as a pod
	mcptest.MaybeServe()    // the interrupt tests start this binary as an MCP server
	mcptest.MaybeBrowse()   // the sign-in test's $BROWSER starts it as the browser
	os.Exit(m.Run())
}
