package service

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// The agent reads the user's instruction files from the face's HOME, the
// folder Settings › Setup shows them from, not from the process's home.
func TestAgentReadsTheFacesHome(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Hello."}}})
	t.Cleanup(srv.Close)
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude", "CLAUDE.md"), []byte("THE FACE'S USER FILE"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := newWorkspace(t, map[string]string{"HOME": home})
	ev := newWaiter()
	w.SetEmitter(ev)
	ctx := context.Background()
	if _, err := w.Settings.Save(wire.SettingsInput{Provider: "anthropic", BaseURL: srv.URL(), APIKey: "sk-test", ApprovalMode: "ask"}); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, w)
	if err := w.Turns.SendMessage(ctx, s.ID, "Hi", nil); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { _, ok := e.(wire.TurnDonePayload); return ok })
	if reqs := srv.ModelRequests(); len(reqs) != 1 || !strings.Contains(reqs[0].System, "THE FACE'S USER FILE") {
		t.Errorf("the system prompt does not have the user file of the face's HOME (%d requests)", len(reqs))
	}
}
