package service

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"pilot/backend/wire"
)

// Opening a session reuses the configuration resolved before, and still
// shows the window the user's override gives as soon as it changes:
// through Settings › Models, or by a hand edit of settings.json.
func TestOpenSessionFollowsOverrides(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	w := openAt(t, home, nil)
	t.Cleanup(w.Close)
	ctx := context.Background()
	s := newSession(t, w)
	window := func() (int, wire.FactSource) {
		t.Helper()
		d, err := w.Sessions.Get(ctx, s.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		return d.Usage.ContextWindow, d.Usage.ContextWindowSource
	}
	table, from := window()
	if from != wire.FactTable {
		t.Fatalf("the session's model %s: window %d from %s, want the table's", s.Model, table, from)
	}
	steps := []struct {
		name   string
		change func() error
		want   int
	}{
		{"an override set", func() error {
			_, err := w.Settings.SetModelOverride(wire.ModelOverride{ID: s.Model, Window: 500_000})
			return err
		}, 500_000},
		{"the override changed", func() error {
			_, err := w.Settings.SetModelOverride(wire.ModelOverride{ID: s.Model, Window: 300_000})
			return err
		}, 300_000},
		{"settings.json edited by hand", func() error {
			return os.WriteFile(filepath.Join(home, "settings.json"), []byte(`{"models": {"`+s.Model+`": {"window": 250000, "maxOutput": 16000}}}`), 0o600)
		}, 250_000},
		{"the override removed", func() error {
			_, err := w.Settings.SetModelOverride(wire.ModelOverride{ID: s.Model})
			return err
		}, table},
	}
	for _, st := range steps {
		window() // kept from the open before
		if err := st.change(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got, _ := window(); got != st.want {
			t.Errorf("after %s, the session shows a window of %d, want %d", st.name, got, st.want)
		}
	}
}

// TestKeptWhile: the value is made again only when a source file was
// replaced, edited in place, made or removed.
func TestKeptWhile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if err := os.WriteFile(a, []byte("1"), 0o600); err != nil {
		t.Fatal(err)
	}
	var k keptWhile[int]
	built := 0
	get := func() int {
		v, _ := k.get([]string{a, b}, func() (int, error) { built++; return built, nil })
		return v
	}
	steps := []struct {
		name   string
		change func() error
		want   int
	}{
		{"first", func() error { return nil }, 1},
		{"unchanged", func() error { return nil }, 1},
		{"edited in place", func() error { return os.WriteFile(a, []byte("22"), 0o600) }, 2},
		{"a missing file made", func() error { return os.WriteFile(b, []byte("{}"), 0o600) }, 3},
		{"replaced by a rename", func() error {
			if err := os.WriteFile(a+".new", []byte("33"), 0o600); err != nil {
				return err
			}
			return os.Rename(a+".new", a)
		}, 4},
		{"removed", func() error { return os.Remove(b) }, 5},
		{"unchanged again", func() error { return nil }, 5},
	}
	for _, s := range steps {
		if err := s.change(); err != nil {
			t.Fatal(err)
		}
		if got := get(); got != s.want {
			t.Fatalf("%s: value %d, want %d", s.name, got, s.want)
		}
	}
}
