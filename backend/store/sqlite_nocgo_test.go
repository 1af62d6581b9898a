//go:build !cgo

package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A build without cgo says at Open that it has no SQLite and how to get
// one (make vet-platforms runs this with CGO_ENABLED=0).
func TestOpenWithoutCgoSaysSoAndWhatToBuild(t *testing.T) {
	t.Parallel()
	_, err := Open(context.Background(), filepath.Join(t.TempDir(), "pilot.db"))
	if err == nil || !strings.Contains(err.Error(), "has no SQLite") || !strings.Contains(err.Error(), "CGO_ENABLED=1") {
		t.Fatalf("Open without cgo: %v, want the sentence saying this build has no SQLite and how to build one", err)
	}
}
