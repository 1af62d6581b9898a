package agent

import (
	"os"
	"testing"

	"pilot/backend/confine"
)

func TestMain(m *testing.M) {
	confine.RunPodIfAsked() // the sandboxed commands' pods run this test binary
	os.Exit(m.Run())
}
