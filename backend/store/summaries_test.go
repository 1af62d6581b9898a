package store

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"pilot/backend/llm"
)

// summarised writes seedConversation and one more exchange, and a summary
// that keeps the messages from the fourth (seq 3) on.
func summarised(t *testing.T, s *Store) (Project, Session, []Message) {
	t.Helper()
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	seedConversation(t, s, x)
	must[Message](t)(s.Messages.Append(ctx, x.ID, user("And the parser?"), llm.Usage{}))
	must[Message](t)(s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleAssistant,
		Content: []llm.ContentBlock{llm.TextBlock("The parser is fine.")}}, llm.Usage{}))
	ms := must[[]Message](t)(s.Messages.List(ctx, x.ID))
	must[Summary](t)(s.Messages.SaveSummary(ctx, x.ID, "The lexer was patched.", ms[3].ID))
	return p, x, ms
}

func TestSummary(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	_, x, ms := summarised(t, s)
	_, other := newSession(t, s, "/other")

	got := must[Summary](t)(s.Messages.Summary(ctx, x.ID))
	if got.SessionID != x.ID || got.Text != "The lexer was patched." || got.KeepID != ms[3].ID || got.CreatedAt.IsZero() {
		t.Errorf("summary = %+v", got)
	}
	if tr := must[Transcript](t)(s.Sessions.Transcript(ctx, x.ID)); tr.Summary == nil || *tr.Summary != got {
		t.Errorf("transcript summary = %+v, want %+v", tr.Summary, got)
	}
	// A new compaction replaces the summary.
	saved := must[Summary](t)(s.Messages.SaveSummary(ctx, x.ID, "Lexer patched, parser fine.", ms[5].ID))
	if got := must[Summary](t)(s.Messages.Summary(ctx, x.ID)); got != saved || got.KeepID != ms[5].ID {
		t.Errorf("after a second save: %+v, want %+v", got, saved)
	}

	for _, tc := range []struct {
		name    string
		session int64
		text    string
		keep    int64
		want    error
	}{
		{"message of another session", other.ID, "x", ms[3].ID, ErrNotFound},
		{"no such session", 999, "x", ms[3].ID, ErrNotFound},
		{"no such message", x.ID, "x", 999, ErrNotFound},
		{"empty text", x.ID, "", ms[3].ID, ErrInvalid},
	} {
		if _, err := s.Messages.SaveSummary(ctx, tc.session, tc.text, tc.keep); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := s.Messages.Summary(ctx, other.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("session without a summary: err = %v", err)
	}

	// The summary goes with its kept message, and with its session.
	if _, err := s.w.Exec(`DELETE FROM messages WHERE id = ?`, ms[5].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Messages.Summary(ctx, x.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("kept message deleted: err = %v", err)
	}
	must[Summary](t)(s.Messages.SaveSummary(ctx, x.ID, "again", ms[3].ID))
	if err := s.Sessions.Delete(ctx, x.ID); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM session_summaries`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d summaries left (%v)", n, err)
	}
	checkIntegrity(t, s)
}

// TestForkSummary: a fork has the summary when it holds the kept message,
// under the id of its own copy of that message.
func TestForkSummary(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	_, x, ms := summarised(t, s)
	for _, tc := range []struct {
		name string
		at   int // index of the message forked at
		keep int // index of the kept message in the fork; -1: no summary
	}{
		{"before the kept message", 1, -1},
		{"at the kept message", 3, 3},
		{"after the kept message", 5, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := must[Session](t)(s.Sessions.Fork(ctx, x.ID, ms[tc.at].ID))
			got, err := s.Messages.Summary(ctx, f.ID)
			if tc.keep < 0 {
				if !errors.Is(err, ErrNotFound) {
					t.Errorf("summary %+v, err %v; want none", got, err)
				}
				return
			}
			fm := must[[]Message](t)(s.Messages.List(ctx, f.ID))
			if err != nil || got.Text != "The lexer was patched." || got.KeepID != fm[tc.keep].ID {
				t.Errorf("summary %+v (%v), want one keeping message %d", got, err, fm[tc.keep].ID)
			}
		})
	}
}

func TestExportImportSummary(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x, _ := summarised(t, s)
	var first bytes.Buffer
	if err := s.WriteJSON(ctx, x.ID, &first); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first.String(), `"keep": 3`) {
		t.Errorf("export has no summary keeping message 3:\n%s", first.String())
	}
	imported := must[Session](t)(s.Import(ctx, p.ID, bytes.NewReader(first.Bytes()), ""))
	var second bytes.Buffer
	if err := s.WriteJSON(ctx, imported.ID, &second); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Errorf("export after import differs:\n%s\n---\n%s", first.String(), second.String())
	}
	im := must[[]Message](t)(s.Messages.List(ctx, imported.ID))
	if got := must[Summary](t)(s.Messages.Summary(ctx, imported.ID)); got.KeepID != im[3].ID {
		t.Errorf("imported summary keeps %d, want %d", got.KeepID, im[3].ID)
	}

	for _, keep := range []string{`"keep": -1`, `"keep": 6`} {
		bad := strings.Replace(first.String(), `"keep": 3`, keep, 1)
		if _, err := s.Import(ctx, p.ID, strings.NewReader(bad), ""); !errors.Is(err, ErrInvalid) {
			t.Errorf("import with %s: err = %v, want ErrInvalid", keep, err)
		}
	}
}
