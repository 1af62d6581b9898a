package logging

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"pilot/backend/ownerfile"
)

func TestRotatingFileRotatesAndKeeps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "pilot.log")
	w, err := OpenRotating(path, 100, 2)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("x", 39) + "\n") // 40 bytes
	for i := 0; i < 10; i++ {
		if _, err := w.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pilot.log", "pilot.log.1", "pilot.log.2"} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if st.Size() > 100 {
			t.Errorf("%s has %d bytes, cap is 100", name, st.Size())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "pilot.log.3")); !os.IsNotExist(err) {
		t.Errorf("pilot.log.3 exists; only 2 old files should be kept")
	}
	if _, err := w.Write(line); err == nil {
		t.Error("write after Close succeeded")
	}
}

func TestLoggerRedacts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		log  func(*slog.Logger)
	}{
		{"string attr", func(l *slog.Logger) { l.Info("call", "auth", "key sk-secret") }},
		{"error attr", func(l *slog.Logger) { l.Error("call", "err", errors.New("bad key sk-secret")) }},
		{"message", func(l *slog.Logger) { l.Info("call", "k", "v") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			l := New(&buf, slog.LevelInfo, func(s string) string { return strings.ReplaceAll(s, "sk-secret", "[redacted]") })
			tc.log(l)
			if strings.Contains(buf.String(), "sk-secret") {
				t.Fatalf("secret in log: %s", buf.String())
			}
			if buf.Len() == 0 {
				t.Fatal("nothing logged")
			}
		})
	}
}

// TestLogIsOwnersOnly: a log file that others could read or write is
// made the owner's only when Pilot opens it (mode 0600 on Unix, an
// owner-only access list on Windows), as the log may quote requests.
func TestLogIsOwnersOnly(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "pilot.log")
	if err := os.WriteFile(path, []byte("old\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	w, err := OpenRotating(path, 1<<20, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := ownerfile.Check(path); err != nil {
		t.Errorf("the log is not its owner's only after OpenRotating: %v", err)
	}
	if runtime.GOOS != "windows" {
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("log mode = %v (%v), want 0600", st.Mode().Perm(), err)
		}
	}
}
