package procgroup_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"pilot/backend/flock"
	"pilot/backend/procgroup"
)

// The test binary plays the command (it starts a grandchild and waits) and
// the grandchild (it holds a lock until it dies), by PROCGROUP_ROLE.
func TestMain(m *testing.M) {
	switch os.Getenv("PROCGROUP_ROLE") {
	case "child":
		gc := exec.Command(os.Args[0])
		gc.Env = append(os.Environ(), "PROCGROUP_ROLE=grandchild")
		if err := gc.Start(); err != nil {
			os.Exit(3)
		}
		_ = gc.Wait()
		os.Exit(0)
	case "grandchild":
		dir := os.Getenv("PROCGROUP_DIR")
		if _, err := flock.Hold(filepath.Join(dir, "lock")); err != nil {
			os.Exit(3)
		}
		if err := os.WriteFile(filepath.Join(dir, "held"), nil, 0o600); err != nil {
			os.Exit(3)
		}
		time.Sleep(time.Hour) // until killed (select{} would end it: all goroutines asleep)
	}
	os.Exit(m.Run())
}

// Kill ends what the command started too: the grandchild's lock is let go.
func TestKillEndsTheGrandchild(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "PROCGROUP_ROLE=child", "PROCGROUP_DIR="+dir)
	g := procgroup.New(cmd, false)
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the grandchild holds its lock", func() bool {
		_, err := os.Stat(filepath.Join(dir, "held"))
		return err == nil
	})
	g.Kill()
	_ = g.Wait()
	got := make(chan error, 1)
	go func() {
		unlock, err := flock.Hold(filepath.Join(dir, "lock"))
		if err == nil {
			unlock()
		}
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the grandchild still holds its lock a minute after Kill: it was left running")
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
