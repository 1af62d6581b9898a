package service

import (
	"reflect"
	"strings"
	"testing"

	"pilot/backend/config"
	"pilot/backend/wire"
)

// Settings' sandbox part: the state as probed, and the extra hidden paths
// saved cleaned, refused with a sentence when bad, and kept by a save of
// the rest of the settings form.
func TestSandboxSettings(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	st, err := w.SandboxStatus()
	if err != nil {
		t.Fatal(err)
	}
	if st.Hidden == nil || len(st.Hidden) != 0 || (!st.Ready && st.Why == "") {
		t.Fatalf("status %+v", st)
	}
	st, err = w.SetSandboxHidden([]string{" ~/.config/app ", "/srv/keys", ""})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"~/.config/app", "/srv/keys"}
	if !reflect.DeepEqual(st.Hidden, want) {
		t.Errorf("hidden %q, want %q", st.Hidden, want)
	}
	if _, err := w.SetSandboxHidden([]string{"relative"}); err == nil || !strings.Contains(err.Error(), "neither absolute") {
		t.Errorf("a relative path: %v", err)
	}
	s, err := config.LoadSettings(w.home)
	if err != nil || !reflect.DeepEqual(s.SandboxHidden, want) {
		t.Errorf("saved %q, %v", s.SandboxHidden, err)
	}
	if _, err := w.SaveSettings(wire.SettingsInput{Provider: "anthropic", ApprovalMode: "edits"}); err != nil {
		t.Fatal(err)
	}
	if s, _ := config.LoadSettings(w.home); !reflect.DeepEqual(s.SandboxHidden, want) {
		t.Errorf("saving the settings form lost the hidden paths: %q", s.SandboxHidden)
	}
}
