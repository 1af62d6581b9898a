package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// savedText reads the streamed message's text as stored.
func savedText(t *testing.T, s *Store, id int64) string {
	t.Helper()
	var text string
	if err := s.r.QueryRow(`SELECT coalesce(content ->> '$[0].text', '') FROM messages WHERE id = ?`, id).Scan(&text); err != nil {
		t.Fatal(err)
	}
	return text
}

func TestStreamDebounces(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	_, x := newSession(t, s, "/p")
	st := must[*Stream](t)(s.Messages.BeginStream(ctx, x.ID))

	// Updates in quick succession after the start are held back...
	for _, text := range []string{"a", "ab", "abc"} {
		if err := st.Update(text); err != nil {
			t.Fatal(err)
		}
	}
	if got := savedText(t, s, st.MessageID()); got != "" {
		t.Errorf("saved %q right away, want nothing yet", got)
	}
	// ...and the last one is saved when the interval ends, with no new Update.
	deadline := time.Now().Add(5 * time.Second)
	for savedText(t, s, st.MessageID()) != "abc" {
		if time.Now().After(deadline) {
			t.Fatalf("trailing text never saved: %q", savedText(t, s, st.MessageID()))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A reader sees it streaming, and search does not index it.
	ms := must[[]Message](t)(s.Messages.List(ctx, x.ID))
	if len(ms) != 1 || ms[0].State != wire.MessageStreaming {
		t.Fatalf("messages = %+v", ms)
	}

	final := []llm.ContentBlock{
		{Type: llm.BlockThinking, Thinking: "hmm", Signature: "sig"},
		llm.TextBlock("abcdef"),
		toolUse("t1", "read_file", `{"path":"a"}`),
	}
	m := must[Message](t)(st.Finish(final, llm.Usage{InputTokens: 7, OutputTokens: 3}))
	if m.State != wire.MessageComplete || len(m.Content) != 3 || m.Usage.OutputTokens != 3 {
		t.Errorf("finished = %+v", m)
	}
	if err := st.Update("late"); !errors.Is(err, ErrStreamClosed) {
		t.Errorf("Update after Finish: %v", err)
	}
	if _, err := st.Finish(nil, llm.Usage{}); !errors.Is(err, ErrStreamClosed) {
		t.Errorf("Finish twice: %v", err)
	}
	// No timer write may land after Finish.
	time.Sleep(2 * StreamSaveInterval)
	if got := must[[]Message](t)(s.Messages.List(ctx, x.ID)); len(got[0].Content) != 3 {
		t.Errorf("content changed after Finish: %+v", got[0].Content)
	}
	checkIntegrity(t, s)
}

func TestStreamInterrupt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		text     string
		wantMsgs int
	}{
		{"keeps the text received", "partial answ", 1},
		{"drops a message with no text", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newStore(t)
			_, x := newSession(t, s, "/p")
			ctx, cancel := context.WithCancel(context.Background())
			st := must[*Stream](t)(s.Messages.BeginStream(ctx, x.ID))
			if tc.text != "" {
				if err := st.Update(tc.text); err != nil {
					t.Fatal(err)
				}
			}
			cancel() // the user stopped the turn; saving must still work
			if err := st.Interrupt(); err != nil {
				t.Fatal(err)
			}
			ms := must[[]Message](t)(s.Messages.List(context.Background(), x.ID))
			if len(ms) != tc.wantMsgs {
				t.Fatalf("messages = %+v", ms)
			}
			if tc.wantMsgs == 1 && (ms[0].State != wire.MessageInterrupted || ms[0].Content[0].Text != tc.text) {
				t.Errorf("message = %+v", ms[0])
			}
			checkIntegrity(t, s)
		})
	}
}
