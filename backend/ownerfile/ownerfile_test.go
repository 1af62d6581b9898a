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
	steps := []struct {
		name    string
		do      func(path string) error
		refused bool
	}{
		{"others can change it", func(p string) error { openToOthers(t, p); return nil }, true},
		{"restricted", Restrict, false},
	}
	path := filepath.Join(t.TempDir(), "trust.json")
	if err := os.WriteFile(path, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if err := s.do(path); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		err := Check(path)
		if s.refused != (err != nil) || s.refused && !strings.Contains(err.Error(), "so Pilot does not use it: remove the file") {
			t.Errorf("Check when %s: %v", s.name, err)
		}
	}
}
