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
