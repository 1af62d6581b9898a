package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"pilot/backend/llm"
)

// newStore opens a fresh database file in a temp dir.
func newStore(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pilot.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// newSession makes a project at dir and a session in it.
func newSession(t testing.TB, s *Store, dir string) (Project, Session) {
	t.Helper()
	ctx := context.Background()
	p, err := s.Projects.Touch(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	x, err := s.Sessions.Create(ctx, NewSession{ProjectID: p.ID, Provider: "anthropic", Model: "claude-test"})
	if err != nil {
		t.Fatal(err)
	}
	return p, x
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func user(text string) llm.Message {
	return llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(text)}}
}

func toolUse(id, name, input string) llm.ContentBlock {
	return llm.ContentBlock{Type: llm.BlockToolUse, ID: id, Name: name, Input: json.RawMessage(input)}
}

func toolResult(id, content string) llm.ContentBlock {
	return llm.ContentBlock{Type: llm.BlockToolResult, ToolUseID: id, Content: content}
}

// checkIntegrity runs SQLite's and both FTS indexes' integrity checks.
func checkIntegrity(t testing.TB, s *Store) {
	t.Helper()
	var res string
	if err := s.r.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check: %q %v", res, err)
	}
	for _, fts := range []string{"messages_fts", "changes_fts", "web_pages_fts"} {
		if _, err := s.w.Exec(fmt.Sprintf("INSERT INTO %s (%s, rank) VALUES ('integrity-check', 1)", fts, fts)); err != nil {
			t.Fatalf("%s integrity-check: %v", fts, err)
		}
	}
	var fk int
	if err := s.r.QueryRow("SELECT count(*) FROM pragma_foreign_key_check").Scan(&fk); err != nil || fk != 0 {
		t.Fatalf("foreign_key_check: %d rows, %v", fk, err)
	}
}
