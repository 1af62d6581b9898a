package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"pilot/backend/llm"
)

// BenchmarkOpenSession is opening a session in the window (Sessions.Get):
// 40 messages, and a settings.json with a few model overrides, as the
// usage view reads them.
func BenchmarkOpenSession(b *testing.B) {
	w, id := benchSession(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := w.Sessions.Get(ctx, id, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKnownFacts is the part of opening a session that gives its
// model's facts to the usage view (the configuration, then the catalog).
func BenchmarkKnownFacts(b *testing.B) {
	w, id := benchSession(b)
	ctx := context.Background()
	s, err := w.core.store.Sessions.Get(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		w.Turns.knownFacts(ctx, s)
	}
}

// benchSession is a service with a session of 40 messages.
func benchSession(b *testing.B) (*Service, int64) {
	home := b.TempDir()
	settings := `{"provider": "anthropic", "models": {"qwen3-coder:30b": {"window": 262144}, "deepseek-chat": {"window": 128000, "maxOutput": 8192}, "moonshotai/kimi-k2": {"window": 131072}}}`
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(settings), 0o600); err != nil {
		b.Fatal(err)
	}
	w := openAt(b, home, map[string]string{"HOME": b.TempDir()})
	b.Cleanup(w.Close)
	ctx := context.Background()
	s := newSession(b, w)
	for i := range 40 {
		role := llm.RoleUser
		if i%2 == 1 {
			role = llm.RoleAssistant
		}
		if _, err := w.core.store.Messages.Append(ctx, s.ID, llm.Message{Role: role, Content: []llm.ContentBlock{llm.TextBlock(fmt.Sprintf("message %d", i))}}, llm.Usage{InputTokens: 1000 + i}); err != nil {
			b.Fatal(err)
		}
	}
	return w, s.ID
}
