package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// seedRounds appends rounds first to first+n-1 of four messages to x: a
// prompt, an answer calling read_file, the call's result, and a closing
// answer (seq 4i to 4i+3). It returns the messages in order.
func seedRounds(t *testing.T, s *Store, x Session, first, n int) []Message {
	t.Helper()
	ctx := context.Background()
	var out []Message
	for i := first; i < first+n; i++ {
		use := fmt.Sprintf("toolu_%d", i)
		out = append(out, must[Message](t)(s.Messages.Append(ctx, x.ID, user(fmt.Sprintf("prompt %d", i)), llm.Usage{})))
		a := must[Message](t)(s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
			toolUse(use, "read_file", `{"path":"a.go"}`)}}, llm.Usage{InputTokens: 10 + i, OutputTokens: 1}))
		c := must[ToolCall](t)(s.ToolCalls.Insert(ctx, ToolCall{SessionID: x.ID, MessageID: a.ID, Call: Call{ToolUseID: use, Name: "read_file", Input: json.RawMessage(`{"path":"a.go"}`)}}))
		if err := s.ToolCalls.Finish(ctx, c.ID, wire.ToolDone, fmt.Sprintf("output %d", i)); err != nil {
			t.Fatal(err)
		}
		out = append(out, a,
			must[Message](t)(s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{toolResult(use, fmt.Sprintf("output %d", i))}}, llm.Usage{})),
			must[Message](t)(s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock(fmt.Sprintf("answer %d", i))}}, llm.Usage{InputTokens: 20 + i, OutputTokens: 2})))
	}
	return out
}

func seqs(ms []Message) []int {
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.Seq
	}
	return out
}

func TestTranscriptPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	_, x := newSession(t, s, "/proj")
	ms := seedRounds(t, s, x, 0, 3) // seq 0..11; results at 2, 6, 10
	_, empty := newSession(t, s, "/proj")
	id := func(seq int) int64 { return ms[seq].ID }

	tests := []struct {
		name      string
		session   int64
		q         PageQuery
		want      []int // seqs
		hasOlder  bool
		callsFrom []int // seqs of the messages whose calls the page holds
	}{
		{"empty session", empty.ID, PageQuery{Limit: 5}, []int{}, false, nil},
		{"last page", x.ID, PageQuery{Limit: 3}, []int{9, 10, 11}, true, []int{9}},
		{"last page starting at a result takes its call in", x.ID, PageQuery{Limit: 2}, []int{9, 10, 11}, true, []int{9}},
		{"the whole session", x.ID, PageQuery{Limit: 50}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, false, []int{1, 5, 9}},
		{"before a message", x.ID, PageQuery{Before: id(8), Limit: 3}, []int{5, 6, 7}, true, []int{5}},
		{"before a message, starting at a result", x.ID, PageQuery{Before: id(7), Limit: 1}, []int{5, 6}, true, []int{5}},
		{"the first page", x.ID, PageQuery{Before: id(4), Limit: 4}, []int{0, 1, 2, 3}, false, []int{1}},
		{"reaching back to a focus", x.ID, PageQuery{From: id(3), Limit: 2}, []int{3, 4, 5, 6, 7, 8, 9, 10, 11}, true, []int{5, 9}},
		{"a focus inside the last page changes nothing", x.ID, PageQuery{From: id(10), Limit: 3}, []int{9, 10, 11}, true, []int{9}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := s.Sessions.TranscriptPage(ctx, tc.session, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := seqs(p.Messages); !slices.Equal(got, tc.want) {
				t.Errorf("messages at seq %v, want %v", got, tc.want)
			}
			if p.HasOlder != tc.hasOlder {
				t.Errorf("HasOlder %v, want %v", p.HasOlder, tc.hasOlder)
			}
			var from []int
			for _, c := range p.ToolCalls {
				i := slices.IndexFunc(ms, func(m Message) bool { return m.ID == c.MessageID })
				from = append(from, i)
				if want := fmt.Sprintf("output %d", i/4); c.Output != want {
					t.Errorf("call %s output %q, want %q", c.ToolUseID, c.Output, want)
				}
			}
			if !slices.Equal(from, tc.callsFrom) {
				t.Errorf("calls of the messages at seq %v, want %v", from, tc.callsFrom)
			}
			if tc.session == x.ID && p.LastUsage.InputTokens != 22 {
				t.Errorf("last usage %+v, want the last answer's (22 input tokens)", p.LastUsage)
			}
		})
	}

	bad := []struct {
		name string
		q    PageQuery
	}{
		{"no limit", PageQuery{}},
		{"a message of another session", PageQuery{Before: ms[0].ID + 1000, Limit: 2}},
		{"a focus of another session", PageQuery{From: ms[0].ID + 1000, Limit: 2}},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, err := s.Sessions.TranscriptPage(ctx, x.ID, tc.q); err == nil {
				t.Error("no error")
			}
		})
	}
}

// TestTranscriptPagesWalk reads a session page by page from its end while
// messages are appended between pages: every message comes once, in order.
func TestTranscriptPagesWalk(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	_, x := newSession(t, s, "/proj")
	ms := seedRounds(t, s, x, 0, 10)
	p := must[Page](t)(s.Sessions.TranscriptPage(ctx, x.ID, PageQuery{Limit: 7}))
	got := p.Messages
	calls := len(p.ToolCalls)
	// Appended after the first page: read with the events, never in an older page.
	ms = append(ms, seedRounds(t, s, x, 10, 1)...)
	for p.HasOlder {
		p = must[Page](t)(s.Sessions.TranscriptPage(ctx, x.ID, PageQuery{Before: got[0].ID, Limit: 7}))
		if len(p.Messages) == 0 {
			t.Fatal("an empty page with older messages")
		}
		got = append(slices.Clone(p.Messages), got...)
		calls += len(p.ToolCalls)
	}
	if want := seqs(ms[:40]); !slices.Equal(seqs(got), want) {
		t.Errorf("pages read %v, want %v", seqs(got), want)
	}
	if calls != 10 {
		t.Errorf("%d tool calls in the pages, want 10", calls)
	}
}
