package mcp

import (
	"os"
	"testing"

	"pilot/backend/internal/mcptest"
)

func TestMain(m *testing.M) {
	mcptest.MaybeServe()
	os.Exit(m.Run())
}
