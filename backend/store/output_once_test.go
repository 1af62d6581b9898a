package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"pilot/backend/llm"
)

// outputOf reads a tool call's stored output column and link.
func outputOf(t *testing.T, s *Store, id int64) (string, int64) {
	t.Helper()
	var out string
	var link *int64
	if err := s.r.QueryRow(`SELECT output, result_message_id FROM tool_calls WHERE id = ?`, id).Scan(&out, &link); err != nil {
		t.Fatal(err)
	}
	if link == nil {
		return out, 0
	}
	return out, *link
}

// TestToolOutputStoredOnce: once the result message commits, the tool
// call's output lives only there, and every reader still sees it.
func TestToolOutputStoredOnce(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	_, x := newSession(t, s, "/proj")
	assistant, call, _ := seedConversation(t, s, x)
	const want = "patched internal/lexer.go: quokka"
	out, link := outputOf(t, s, call.ID)
	if out != "" || link == 0 {
		t.Fatalf("output %q linked to %d: want it held by the result message", out, link)
	}
	calls := must[[]ToolCall](t)(s.ToolCalls.List(ctx, x.ID))
	tr := must[Transcript](t)(s.Sessions.Transcript(ctx, x.ID))
	if calls[0].Output != want || tr.ToolCalls[0].Output != want {
		t.Errorf("ToolCalls %q, Transcript %q, want %q", calls[0].Output, tr.ToolCalls[0].Output, want)
	}

	// A fork at the assistant message copies the output out of the result
	// message it leaves behind; the repair answers with it, and then holds
	// it, as in any session.
	f := must[Session](t)(s.Sessions.Fork(ctx, x.ID, assistant.ID))
	fc := must[[]ToolCall](t)(s.ToolCalls.List(ctx, f.ID))
	fm := must[[]Message](t)(s.Messages.List(ctx, f.ID))
	if last := fm[len(fm)-1].Content[0]; last.Type != llm.BlockToolResult || last.Content != want || fc[0].Output != want {
		t.Errorf("fork repaired with %+v, call output %q", last, fc[0].Output)
	}
	if out, link := outputOf(t, s, fc[0].ID); out != "" || link != fm[len(fm)-1].ID {
		t.Errorf("fork after repair: output %q link %d", out, link)
	}

	// A whole fork links its copy to its own result message.
	last := tr.Messages[len(tr.Messages)-1]
	f2 := must[Session](t)(s.Sessions.Fork(ctx, x.ID, last.ID))
	f2c := must[[]ToolCall](t)(s.ToolCalls.List(ctx, f2.ID))
	_, link2 := outputOf(t, s, f2c[0].ID)
	var linkSession int64
	if err := s.r.QueryRow(`SELECT session_id FROM messages WHERE id = ?`, link2).Scan(&linkSession); err != nil || linkSession != f2.ID || f2c[0].Output != want {
		t.Errorf("full fork: linked to message %d of session %d (%v), output %q", link2, linkSession, err, f2c[0].Output)
	}

	// Removing the result message gives the output back to the call.
	if _, err := s.w.Exec(`DELETE FROM messages WHERE id = ?`, link); err != nil {
		t.Fatal(err)
	}
	if out, link := outputOf(t, s, call.ID); out != want || link != 0 {
		t.Errorf("after deleting the result message: output %q link %d", out, link)
	}
	checkIntegrity(t, s)
}

// TestMigrationLinksOutputs: version 1 stored an output twice; version 2
// keeps it in the result message only.
func TestMigrationLinksOutputs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	seed, err := os.ReadFile(filepath.Join("testdata", "seed_v1.sql"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(t.TempDir(), "pilot.db")+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if err := migrate(ctx, db, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(seed)); err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, db, 2); err != nil {
		t.Fatal(err)
	}
	var out, resolved string
	var link sql.NullInt64
	if err := db.QueryRow(`SELECT t.output, t.result_message_id, v.output FROM tool_calls t
		JOIN tool_call_rows v ON v.id = t.id WHERE t.id = 1`).Scan(&out, &link, &resolved); err != nil {
		t.Fatal(err)
	}
	if out != "" || link.Int64 != 3 || resolved != "wrote cards/squares.txt" {
		t.Errorf("tool call 1: output %q, result message %v, read as %q", out, link, resolved)
	}
}
