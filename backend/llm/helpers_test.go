package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk-ant-test-0123456789abcdef"

// noSleep is a retry policy that records delays instead of sleeping.
type noSleep struct {
	mu     sync.Mutex
	delays []time.Duration
}

func (n *noSleep) policy() RetryPolicy {
	return RetryPolicy{
		Sleep: func(ctx context.Context, d time.Duration) error {
			n.mu.Lock()
			n.delays = append(n.delays, d)
			n.mu.Unlock()
			return ctx.Err()
		},
		Jitter: func() float64 { return 0.5 },
		Now:    func() time.Time { return time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC) },
	}
}

func (n *noSleep) got() []time.Duration {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]time.Duration(nil), n.delays...)
}

// readFixture returns a file of testdata.
func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// replayServer answers every request with body, byte for byte.
func replayServer(t testing.TB, body []byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newProvider builds a provider of kind ("anthropic" or "openai") for srv.
func newProvider(t testing.TB, kind, url string, retry RetryPolicy) Provider {
	t.Helper()
	if kind == ProviderOpenAI {
		url += "/v1"
	}
	p, err := New(Config{Provider: kind, BaseURL: url, APIKey: testKey, Model: "test-model", Retry: retry})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var simpleRequest = Request{Messages: []Message{{Role: RoleUser, Content: []ContentBlock{TextBlock("hi")}}}}

// drain runs one streamed call and returns its events in the short form of
// describe.
func drain(t testing.TB, p Provider, req Request) []string {
	t.Helper()
	out, _ := events(streamOf(t, p, req))
	return out
}

// streamOf starts a streamed call, cancelled when the test ends.
func streamOf(t testing.TB, p Provider, req Request) <-chan Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	ch, err := p.Stream(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// describe prints an event in one comparable line.
func describe(ev Event) string {
	switch ev.Type {
	case EventTextDelta:
		return "text " + ev.Text
	case EventThinkingDelta:
		if ev.Signature != "" {
			return "signature " + ev.Signature
		}
		return "thinking " + ev.Text
	case EventRedactedThinking:
		return "redacted " + ev.Text
	case EventToolStart:
		return fmt.Sprintf("tool_start %s %s", ev.ToolID, ev.ToolName)
	case EventToolDelta:
		return fmt.Sprintf("tool_delta %s %s", ev.ToolID, ev.Text)
	case EventToolDone:
		s := fmt.Sprintf("tool_done %s %s %s", ev.ToolID, ev.ToolName, ev.Input)
		if errors.Is(ev.Err, ErrInvalidToolInput) {
			s += " (invalid)"
		}
		return s
	case EventUsage:
		u := ev.Usage
		return fmt.Sprintf("usage in=%d out=%d cr=%d cw=%d", u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens)
	case EventRetry:
		return "retry " + ev.Retry.String()
	case EventStop:
		return "stop " + string(ev.Stop)
	case EventError:
		var e *Error
		if errors.As(ev.Err, &e) {
			return fmt.Sprintf("error %s partial=%v", e.Kind, e.Partial)
		}
		return "error " + ev.Err.Error()
	}
	return fmt.Sprintf("unknown %d", ev.Type)
}

func diffLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\ngot:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// events reads a stream to its end: every event described, and the last one.
func events(ch <-chan Event) (got []string, last Event) {
	for ev := range ch {
		got = append(got, describe(ev))
		last = ev
	}
	return got, last
}
