package agent

import (
	"os"
	"testing"

	"pilot/backend/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.RunPodIfAsked() // the sandboxed commands' pods run this test binary
	os.Exit(m.Run())
}
