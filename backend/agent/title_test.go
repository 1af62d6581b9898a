package agent

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/store"
)

func TestAutoTitle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	long := strings.Repeat("word ", 30)
	tests := []struct {
		name     string
		first    string
		complete func(ctx context.Context, prompt string) (string, error)
		want     string
	}{
		{"model title", "Fix the lexer", func(_ context.Context, prompt string) (string, error) {
			if !strings.Contains(prompt, "User: Fix the lexer") || !strings.Contains(prompt, "Assistant: On it.") {
				return "", errors.New("bad prompt: " + prompt)
			}
			return "  \"Lexer escape fix.\"\nextra", nil
		}, "Lexer escape fix"},
		{"model fails", "Fix the lexer\nmore detail", func(context.Context, string) (string, error) {
			return "", errors.New("offline")
		}, "Fix the lexer"},
		{"model answers nothing", "Fix the lexer", func(context.Context, string) (string, error) { return " \n ", nil }, "Fix the lexer"},
		{"no model", "# Refactor config loading", nil, "Refactor config loading"},
		{"long first line", long, nil, strings.TrimSpace(strings.Repeat("word ", 11)) + "…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st, err := store.Open(ctx, filepath.Join(t.TempDir(), "pilot.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			p, err := st.Projects.Touch(ctx, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			x, err := st.Sessions.Create(ctx, store.NewSession{ProjectID: p.ID, Provider: "anthropic", Model: "claude-test"})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []llm.Message{
				{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(tc.first)}},
				{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("On it.")}},
			} {
				if _, err := st.Messages.Append(ctx, x.ID, m, llm.Usage{}); err != nil {
					t.Fatal(err)
				}
			}
			got, err := autoTitle(ctx, st, x.ID, tc.complete)
			if err != nil || got != tc.want {
				t.Errorf("title = %q, %v; want %q", got, err, tc.want)
			}
			if saved, err := st.Sessions.Get(ctx, x.ID); err != nil || saved.Title != tc.want {
				t.Errorf("saved title = %q, %v", saved.Title, err)
			}
		})
	}
}
