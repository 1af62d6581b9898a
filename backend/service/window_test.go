package service

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"pilot/backend/wire"
)

// openAt opens a service on home (closed by the caller).
func openAt(t testing.TB, home string, env map[string]string) *Service {
	t.Helper()
	w, err := Open(context.Background(), Options{
		Home:   home,
		Log:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		Getenv: func(k string) string { return env[k] },
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestOpenWithAFolderGiven(t *testing.T) {
	t.Parallel()
	dir, other := t.TempDir(), t.TempDir()
	w, err := Open(context.Background(), Options{
		Home:    t.TempDir(),
		Log:     slog.New(slog.NewTextHandler(io.Discard, nil)),
		Getenv:  func(k string) string { return map[string]string{"PILOT_PROJECT": other}[k] },
		Project: dir,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ps, err := w.Projects.List(context.Background())
	if err != nil || len(ps) != 1 || ps[0].Path != dir {
		t.Fatalf("projects = %+v, %v; want only %s (the folder given beats PILOT_PROJECT)", ps, err, dir)
	}
}

func TestNotificationsSwitch(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	if !w.Settings.NotificationsOn() {
		t.Fatal("notifications are off by default")
	}
	v, _ := w.Settings.Get()
	in := wire.SettingsInput{Provider: v.Provider, ApprovalMode: v.ApprovalMode}
	off := false
	in.Notifications = &off
	if v, err := w.Settings.Save(in); err != nil || v.Notifications {
		t.Fatalf("saved off: %+v, %v", v.Notifications, err)
	}
	if w.Settings.NotificationsOn() {
		t.Fatal("the switch was saved off but reads on")
	}
	in.Notifications = nil // a form without the switch keeps it
	if v, err := w.Settings.Save(in); err != nil || v.Notifications {
		t.Fatalf("kept: %+v, %v", v.Notifications, err)
	}
}

func readPIDs(t *testing.T, path string) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		f := strings.Fields(string(b))
		if len(f) == 2 {
			var out []int
			for _, s := range f {
				n, err := strconv.Atoi(s)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, n)
			}
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command wrote %q to its pid file", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
