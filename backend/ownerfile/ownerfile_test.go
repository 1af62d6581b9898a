package ownerfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckAndRestrict: a file others can change is refused with a
// sentence saying what to do; Restrict makes it the owner's only, and
// then it is used.
func TestCheckAndRestrict(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "trust.json")
	if err := os.WriteFile(path, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	openToOthers(t, path)
	err := Check(path)
	if err == nil || !strings.Contains(err.Error(), "so Pilot does not use it: remove the file") {
		t.Fatalf("Check of a file others can change: %v", err)
	}
	if err := Restrict(path); err != nil {
		t.Fatal(err)
	}
	if err := Check(path); err != nil {
		t.Errorf("Check after Restrict: %v", err)
	}
}
