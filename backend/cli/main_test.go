package cli

import (
	"os"
	"testing"

	"pilot/backend/mcp/mcptest"
)

func TestMain(m *testing.M) {
	mcptest.MaybeServe() // the interrupt tests start this binary as an MCP server
	os.Exit(m.Run())
}
