package service

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// A slash command's message keeps what the user typed beside the expansion
// the model read, and a reopened session still shows both; a plain message
// has no typed form.
func TestSlashCommandKeepsTypedText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".pilot", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".pilot", "commands", "hello.md"), []byte("Say hello to $ARGUMENTS in French."), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Bonjour, Ada."}, {Text: "Fine."}}})
	w, ev, p, s := openChat(t, srv, dir)
	ctx := context.Background()
	if err := w.Turns.SendMessage(ctx, s.ID, "/hello Ada", nil); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { d, ok := e.(wire.TurnDonePayload); return ok && d.SessionID == s.ID })
	plain, err := w.Sessions.New(ctx, p.ID) // a new one: an empty session would be reused
	if err != nil || plain.ID == s.ID {
		t.Fatalf("second session %+v %v", plain, err)
	}
	if err := w.Turns.SendMessage(ctx, plain.ID, "plain words", nil); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { d, ok := e.(wire.TurnDonePayload); return ok && d.SessionID == plain.ID })
	if got := srv.ModelRequests()[0].LastUserText; got != "Say hello to Ada in French." {
		t.Fatalf("the model read %q, want the expansion", got)
	}
	// The request body sent to the provider never carries the typed form.
	body, _ := json.Marshal(srv.ModelRequests()[0].Body["messages"])
	if strings.Contains(string(body), "/hello") || strings.Contains(string(body), `"command"`) {
		t.Fatalf("the typed command reached the model: %s", body)
	}
	var users [][2]string
	for _, id := range []int64{s.ID, plain.ID} {
		d, err := w.Sessions.Get(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range d.Messages {
			if m.Role == "user" {
				users = append(users, [2]string{m.Blocks[0].Text, m.Blocks[0].Command})
			}
		}
	}
	want := [][2]string{{"Say hello to Ada in French.", "/hello Ada"}, {"plain words", ""}}
	if len(users) != 2 || users[0] != want[0] || users[1] != want[1] {
		t.Fatalf("user messages (text, command) = %q, want %q", users, want)
	}
}
