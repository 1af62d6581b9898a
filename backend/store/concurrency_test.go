package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// TestConcurrentStreamingAndReading runs a turn loop that streams answers
// and commits tool calls while readers list, search and open sessions, and
// while a second Store on the same file (another Pilot process) writes
// too. Nobody may see an error ("database is locked" included), and
// readers never see a half-written message.
func TestConcurrentStreamingAndReading(t *testing.T) {
	t.Parallel()
	s, path := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	other, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	_, y := newSession(t, other, "/proj")

	var done atomic.Bool
	var reads atomic.Int64
	errs := make(chan error, 100)
	var wg sync.WaitGroup

	wg.Go(func() { // the agent loop
		defer done.Store(true)
		for turn := range 8 {
			if _, err := s.Messages.Append(ctx, x.ID, user(fmt.Sprintf("turn %d: explain gadget%d", turn, turn)), llm.Usage{}); err != nil {
				errs <- err
				return
			}
			st, err := s.Messages.BeginStream(ctx, x.ID)
			if err != nil {
				errs <- err
				return
			}
			var text strings.Builder
			for i := range 60 {
				fmt.Fprintf(&text, "word%d ", i)
				if err := st.Update(text.String()); err != nil {
					errs <- err
					return
				}
				time.Sleep(2 * time.Millisecond)
			}
			id := fmt.Sprintf("tu_%d", turn)
			m, err := st.Finish([]llm.ContentBlock{llm.TextBlock(text.String()), toolUse(id, "read_file", `{"path":"gadget.go"}`)}, llm.Usage{OutputTokens: 60})
			if err != nil {
				errs <- err
				return
			}
			c, err := s.ToolCalls.Insert(ctx, ToolCall{SessionID: x.ID, MessageID: m.ID, Call: Call{ToolUseID: id, Name: "read_file", Input: json.RawMessage(`{"path":"gadget.go"}`)}})
			if err == nil {
				err = s.ToolCalls.Finish(ctx, c.ID, wire.ToolDone, "package gadget")
			}
			if err == nil {
				_, err = s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{toolResult(id, "package gadget")}}, llm.Usage{})
			}
			if err == nil {
				err = s.Sessions.UpdateUsage(ctx, x.ID, llm.Usage{OutputTokens: 60}, 0.001)
			}
			if err != nil {
				errs <- err
				return
			}
		}
	})
	wg.Go(func() { // another process writing to the same file
		for i := 0; !done.Load(); i++ {
			if _, err := other.Messages.Append(ctx, y.ID, user(fmt.Sprintf("other process %d", i)), llm.Usage{}); err != nil {
				errs <- fmt.Errorf("second store: %w", err)
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
	for range 4 {
		wg.Go(func() {
			for !done.Load() {
				if _, err := s.Sessions.List(ctx, p.ID, 50, 0); err != nil {
					errs <- err
					return
				}
				if _, err := s.Search(ctx, p.ID, "gadget wor", 20); err != nil {
					errs <- err
					return
				}
				tr, err := s.Sessions.Transcript(ctx, x.ID)
				if err != nil {
					errs <- err
					return
				}
				for _, m := range tr.Messages {
					if m.State == wire.MessageComplete && m.Role == llm.RoleAssistant && len(m.Content) != 2 {
						errs <- fmt.Errorf("half-written message %d: %+v", m.ID, m.Content)
						return
					}
				}
				reads.Add(1)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if reads.Load() == 0 {
		t.Error("readers never completed a round")
	}
	ms := must[[]Message](t)(s.Messages.List(ctx, x.ID))
	if len(ms) != 8*3 {
		t.Errorf("%d messages, want %d", len(ms), 8*3)
	}
	if hits := must[[]SearchHit](t)(s.Search(ctx, p.ID, "word59", 50)); len(hits) != 8 {
		t.Errorf("search word59: %d hits, want 8", len(hits))
	}
	checkIntegrity(t, s)
	t.Logf("%d read rounds during the writes", reads.Load())
}
