package service

import (
	"context"
	"fmt"
	"testing"

	"pilot/backend/llm"
)

// TestSessionPages: the window opens a long session at its last page,
// reaches back to a search hit, falls back to the last page for a hit
// rewound away, and reads older pages before a message.
func TestSessionPages(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.Sessions.New(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	const n = 250
	ids := make([]int64, n)
	for i := range n {
		role, u := llm.RoleUser, llm.Usage{}
		if i%2 == 1 {
			role, u = llm.RoleAssistant, llm.Usage{InputTokens: 100 + i, OutputTokens: 1}
		}
		m, err := w.core.store.Messages.Append(ctx, s.ID, llm.Message{Role: role, Content: []llm.ContentBlock{llm.TextBlock(fmt.Sprintf("message %d", i))}}, u)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = m.ID
	}

	tests := []struct {
		name         string
		focus        int64
		first, count int
		hasOlder     bool
	}{
		{"the last page", 0, n - PageSize, PageSize, true},
		{"back to a hit", ids[2], 2, n - 2, true},
		{"back to the first message", ids[0], 0, n, false},
		{"a hit rewound away", ids[n-1] + 1000, n - PageSize, PageSize, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := w.Sessions.Get(ctx, s.ID, tc.focus)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Messages) != tc.count || d.Messages[0].ID != ids[tc.first] || d.HasOlder != tc.hasOlder {
				t.Errorf("%d messages from %d, hasOlder %v; want %d from %d, %v", len(d.Messages), d.Messages[0].ID, d.HasOlder, tc.count, ids[tc.first], tc.hasOlder)
			}
			if want := 100 + n - 1 + 1; d.Usage.ContextTokens != want {
				t.Errorf("context tokens %d, want the last answer's %d", d.Usage.ContextTokens, want)
			}
		})
	}

	older, err := w.Sessions.OlderMessages(ctx, s.ID, ids[n-PageSize], 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(older.Messages) != PageSize || older.Messages[0].ID != ids[n-2*PageSize] || !older.HasOlder {
		t.Errorf("older page: %d messages from %d, hasOlder %v", len(older.Messages), older.Messages[0].ID, older.HasOlder)
	}
	if _, err := w.Sessions.OlderMessages(ctx, s.ID, ids[0]+100000, 0); err == nil {
		t.Error("a page before a message not in the session: no error")
	}
}
