package service

import (
	"reflect"
	"strings"
	"testing"

	"pilot/backend/agent"
	"pilot/backend/config"
	"pilot/backend/wire"
)

// Settings' sandbox part: the state as probed, and the extra hidden paths
// saved cleaned, refused with a sentence when bad, and kept by a save of
// the rest of the settings form.
func TestSandboxSettings(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	st, err := w.Sandbox.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Hidden == nil || len(st.Hidden) != 0 || (!st.Ready && st.Why == "") {
		t.Fatalf("status %+v", st)
	}
	st, err = w.Sandbox.SetHidden([]string{" ~/.config/app ", "/srv/keys", ""})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"~/.config/app", "/srv/keys"}
	if !reflect.DeepEqual(st.Hidden, want) {
		t.Errorf("hidden %q, want %q", st.Hidden, want)
	}
	if _, err := w.Sandbox.SetHidden([]string{"relative"}); err == nil || !strings.Contains(err.Error(), "neither absolute") {
		t.Errorf("a relative path: %v", err)
	}
	s, err := config.LoadSettings(w.core.home)
	if err != nil || !reflect.DeepEqual(s.SandboxHidden, want) {
		t.Errorf("saved %q, %v", s.SandboxHidden, err)
	}
	if _, err := w.Settings.Save(wire.SettingsInput{Provider: "anthropic", ApprovalMode: "edits"}); err != nil {
		t.Fatal(err)
	}
	if s, _ := config.LoadSettings(w.core.home); !reflect.DeepEqual(s.SandboxHidden, want) {
		t.Errorf("saving the settings form lost the hidden paths: %q", s.SandboxHidden)
	}

	// The sockets commands may connect to: validated, saved, kept.
	if st.Sockets == nil || len(st.Sockets) != 0 {
		t.Errorf("sockets %q, want an empty list", st.Sockets)
	}
	st, err = w.Sandbox.SetSockets([]string{" ~/.docker/run/docker.sock ", "~/.colima/", ""})
	wantSockets := []string{"~/.docker/run/docker.sock", "~/.colima"}
	if err != nil || !reflect.DeepEqual(st.Sockets, wantSockets) || !reflect.DeepEqual(st.Hidden, want) {
		t.Fatalf("status %+v, %v", st, err)
	}
	if _, err := w.Sandbox.SetSockets([]string{"docker.sock"}); err == nil || !strings.Contains(err.Error(), "the allowed socket \"docker.sock\" is neither absolute") {
		t.Errorf("a relative socket: %v", err)
	}
	if _, err := w.Settings.Save(wire.SettingsInput{Provider: "anthropic", ApprovalMode: "edits"}); err != nil {
		t.Fatal(err)
	}
	if s, _ := config.LoadSettings(w.core.home); !reflect.DeepEqual(s.SandboxSockets, wantSockets) {
		t.Errorf("saving the settings form lost the sockets: %q", s.SandboxSockets)
	}
	if got := w.core.sandboxOptions(agent.Sandbox{}).Sockets(); !reflect.DeepEqual(got, wantSockets) {
		t.Errorf("the agent's sockets %q", got)
	}
}
