package ledger

import (
	"path/filepath"
	"testing"
)

// Sync of stored objects, a delta and its base, succeeds (issue 41: on
// Windows it flushed a read-only handle, "Access is denied", and every
// checkpoint failed; make test-windows runs it under Wine).
func TestSyncStoredObjects(t *testing.T) {
	t.Parallel()
	b, err := OpenBlobs(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	base, err := b.Put([]byte("first version of the file\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	next, err := b.Put([]byte("first version of the file\nand a second line\n"), base)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(next); err != nil {
		t.Fatalf("Sync: %v", err)
	}
}
