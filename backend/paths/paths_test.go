package paths

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHome(t *testing.T) {
	t.Parallel()
	cfg, err := os.UserConfigDir()
	if err != nil {
		t.Skip("no user config dir on this machine")
	}
	tmp := t.TempDir()
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"env wins", map[string]string{"PILOT_HOME": tmp}, tmp},
		{"default under the user config dir", nil, filepath.Join(cfg, "pilot")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Home(func(k string) string { return tc.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("Home() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestEnsureCreatesLogDir(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "a", "b")
	if err := Ensure(home); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(LogDir(home))
	if err != nil || !st.IsDir() {
		t.Fatalf("log dir missing: %v", err)
	}
	if err := Ensure("/proc/forbidden/pilot"); err == nil {
		t.Fatal("Ensure on an unwritable path succeeded")
	}
}

func TestCheckpoints(t *testing.T) {
	t.Parallel()
	if got, want := Checkpoints("/h"), filepath.Join("/h", "checkpoints"); got != want {
		t.Errorf("Checkpoints = %q, want %q", got, want)
	}
}

func TestWorktree(t *testing.T) {
	t.Parallel()
	if got, want := Worktree("/h", 7, "fix"), filepath.Join("/h", "worktrees", "7", "fix"); got != want {
		t.Fatalf("Worktree = %q, want %q", got, want)
	}
}
