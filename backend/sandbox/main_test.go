//go:build linux

package sandbox

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	RunPodIfAsked() // the pods the tests start run this test binary
	os.Exit(m.Run())
}
