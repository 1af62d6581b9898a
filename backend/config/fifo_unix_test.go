//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The project's .env is read through the project's root: a link out of
// the project (to a file holding a key, to /dev/zero) or a FIFO is not
// read, at once, and the warning names it and what to do.
func TestResolveDotEnvThroughRoot(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "other.env"), "TS_AGENT_API_KEY=sk-ant-outside-000000\n", 0o600)
	for name, plant := range map[string]func(p string) error{
		"link out": func(p string) error { return os.Symlink(filepath.Join(outside, "other.env"), p) },
		"zero":     func(p string) error { return os.Symlink("/dev/zero", p) },
		"fifo":     func(p string) error { return syscall.Mkfifo(p, 0o600) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			home, project := t.TempDir(), t.TempDir()
			if err := plant(filepath.Join(project, ".env")); err != nil {
				t.Fatal(err)
			}
			r, err := Resolve(home, project, envOf(nil))
			if err != nil {
				t.Fatal(err)
			}
			if r.APIKey.Value != "" || len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], ".env was not read: it is") {
				t.Errorf("key %+v, warnings %q", r.APIKey, r.Warnings)
			}
		})
	}
}
