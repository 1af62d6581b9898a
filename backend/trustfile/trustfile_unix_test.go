//go:build !windows

package trustfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreOthersCanWrite: a trust file other users can change trusts
// nothing (its hashes could be theirs); trusting again replaces it with
// a private file. The Windows form (an access list) is ownerfile's test.
func TestStoreOthersCanWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := Store{Dir: dir, Name: "t.json", Key: "files", Again: "trust it again"}
	path := filepath.Join(dir, "t.json")
	if err := os.WriteFile(path, []byte(`{"files": {"/p": "1"}}`), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil { // past the umask
		t.Fatal(err)
	}
	if h, err := s.Get("/p"); h != "" || err == nil || !strings.Contains(err.Error(), "can be changed by other users") || !strings.HasSuffix(err.Error(), "; then trust it again") {
		t.Fatalf("Get from a file others can change: %q, %v", h, err)
	}
	if err := s.Set("/p", "2"); err != nil {
		t.Fatal(err)
	}
	if h, err := s.Get("/p"); h != "2" || err != nil {
		t.Errorf("after trusting again: %q, %v", h, err)
	}
}
