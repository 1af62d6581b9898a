package mcp

import (
	"os"
	"testing"

	"pilot/backend/mcp/mcptest"
)

func TestMain(m *testing.M) {
	mcptest.MaybeServe()
	os.Exit(m.Run())
}
