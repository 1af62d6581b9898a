package confine

import (
	"os"
	"path/filepath"
	"testing"
)

// The empty .git is made once, kept while a pod of this process uses it,
// removed by the last one when still empty; one holding something (the
// user's own git init meanwhile), and one Pilot did not make, stay.
func TestPlaceholderLife(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		before func(p string) // what is there before the first pod
		during func(p string) // what happens on the host meanwhile
		kept   bool
	}{
		{"made and removed", func(string) {}, func(string) {}, false},
		{"left by a crash, removed", func(p string) { os.Mkdir(p, 0o755) }, func(string) {}, false},
		{"filled meanwhile, kept", func(string) {}, func(p string) { os.WriteFile(filepath.Join(p, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644) }, true},
		{"a repository already, kept", func(p string) {
			os.Mkdir(p, 0o755)
			os.WriteFile(filepath.Join(p, "HEAD"), nil, 0o644)
		}, func(string) {}, true},
	} {
		p := filepath.Join(t.TempDir(), ".git")
		c.before(p)
		for range 2 { // two pods of one folder
			if held, err := holdPlaceholder(p); err != nil || !held {
				t.Fatalf("%s: hold = %v, %v", c.name, held, err)
			}
		}
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			t.Fatalf("%s: no folder while held: %v", c.name, err)
		}
		c.during(p)
		releasePlaceholder(p)
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s: removed while another pod holds it", c.name)
		}
		releasePlaceholder(p)
		if _, err := os.Stat(p); (err == nil) != c.kept {
			t.Errorf("%s: kept %v after the last pod, want %v", c.name, err == nil, c.kept)
		}
	}
}
