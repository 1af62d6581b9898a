package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const testIdle = 200 * time.Millisecond

// silentReply is one answer of a silentServer: its chunks, flushed one by
// one gap apart, then, if hang, nothing more until the test ends. A reply
// without chunks that hangs sends no headers either.
type silentReply struct {
	chunks []string
	gap    time.Duration
	hang   bool
}

// silentServer answers attempt i with replies[i] (the last one after that)
// and counts attempts. Hanging handlers are released when the test ends,
// before the server closes.
func silentServer(t *testing.T, replies ...silentReply) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		rep := replies[min(int(n.Add(1))-1, len(replies)-1)]
		if len(rep.chunks) > 0 {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
		}
		for i, c := range rep.chunks {
			if i > 0 {
				time.Sleep(rep.gap)
			}
			_, _ = io.WriteString(w, c)
			w.(http.Flusher).Flush()
		}
		if rep.hang {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first
	return srv, &n
}

const (
	anthropicStart = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n"
	anthropicPing  = "event: ping\ndata: {\"type\": \"ping\"}\n\n"
	anthropicHel   = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\n"
	openaiHel = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}\n\n"
)

func TestStreamIdleTimeout(t *testing.T) {
	t.Parallel()
	okAnthropic := string(readFixture(t, "anthropic_comments_crlf.sse"))
	okEvents := []string{"text Hi", "usage in=5 out=2 cr=0 cw=0", "stop end_turn"}
	retry := "retry retrying in 750 ms (nothing arrived for 200 ms)"
	tests := []struct {
		name     string
		provider string
		replies  []silentReply
		attempts int
		want     []string
		msg      string // the error sentence, when the call fails
	}{
		{"silent before the headers, then an answer", ProviderAnthropic,
			[]silentReply{{hang: true}, {chunks: []string{okAnthropic}}}, 2,
			append([]string{retry}, okEvents...), ""},
		{"silent after message_start and a ping, then an answer", ProviderAnthropic,
			[]silentReply{{chunks: []string{anthropicStart, anthropicPing}, hang: true}, {chunks: []string{okAnthropic}}}, 2,
			append([]string{retry}, okEvents...), ""},
		{"always silent", ProviderAnthropic,
			[]silentReply{{chunks: []string{anthropicStart}, hang: true}}, 4,
			[]string{retry, "retry retrying in 2 s (nothing arrived for 200 ms)", "retry retrying in 3 s (nothing arrived for 200 ms)", "error stalled partial=false"},
			"went silent (nothing arrived for 200 ms) and still failed after 3 retries; try again, or check the network connection."},
		{"silent in the middle of the answer", ProviderAnthropic,
			[]silentReply{{chunks: []string{anthropicStart, anthropicHel}, hang: true}}, 1,
			[]string{"text Hel", "error stalled partial=true"},
			"went silent in the middle of the answer (nothing arrived for 200 ms); try again, or check the network connection. The partial answer was kept."},
		{"openai silent in the middle of the answer", ProviderOpenAI,
			[]silentReply{{chunks: []string{openaiHel}, hang: true}}, 1,
			[]string{"text Hel", "error stalled partial=true"},
			"The model server at 127.0.0.1"},
		{"pings and comments are signs of life", ProviderAnthropic,
			[]silentReply{{chunks: []string{anthropicStart, anthropicPing, ": keep-alive\n\n", anthropicPing, ": keep-alive\n\n", anthropicPing, okAnthropic}, gap: testIdle / 4}}, 1,
			okEvents, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, n := silentServer(t, tt.replies...)
			base := srv.URL
			if tt.provider == ProviderOpenAI {
				base += "/v1"
			}
			p, err := New(Config{Provider: tt.provider, BaseURL: base, APIKey: testKey, Model: "test-model",
				Retry: (&noSleep{}).policy(), StreamIdleTimeout: testIdle})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			ch, err := p.Stream(context.Background(), simpleRequest)
			if err != nil {
				t.Fatal(err)
			}
			got, last := events(ch)
			elapsed := time.Since(start)
			diffLines(t, got, tt.want)
			if int(n.Load()) != tt.attempts {
				t.Errorf("attempts = %d, want %d", n.Load(), tt.attempts)
			}
			if tt.msg == "" {
				return
			}
			var e *Error
			if !errors.As(last.Err, &e) || !errors.Is(last.Err, ErrStalled) || !e.Retryable() || !strings.Contains(e.Error(), tt.msg) {
				t.Errorf("error %v, want a retryable stall saying %q", last.Err, tt.msg)
			}
			if least := time.Duration(tt.attempts) * testIdle; elapsed < least || elapsed > least+5*time.Second {
				t.Errorf("gave up after %v, want a little over %v", elapsed, least)
			}
		})
	}
}

// TestStallLeavesNothingRunning is not parallel: it counts goroutines.
func TestStallLeavesNothingRunning(t *testing.T) {
	srv, _ := silentServer(t, silentReply{chunks: []string{anthropicStart, anthropicHel}, hang: true})
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	p, err := New(Config{Provider: ProviderAnthropic, BaseURL: srv.URL, APIKey: testKey,
		HTTPClient: &http.Client{Transport: transport}, StreamIdleTimeout: testIdle})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = p.Complete(context.Background(), simpleRequest)
	if !errors.Is(err, ErrStalled) {
		t.Fatalf("err = %v", err)
	}
	waitNoLeaks(t, transport)
}

func TestIdleSetting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider string
		set      time.Duration
		want     time.Duration // <= 0: no limit
	}{
		{ProviderAnthropic, 0, DefaultAnthropicIdle},
		{ProviderOpenAI, 0, DefaultOpenAIIdle},
		{ProviderOpenAI, testIdle, testIdle},
		{ProviderAnthropic, -1, -1},
	}
	for _, tt := range tests {
		srv := replayServer(t, readFixture(t, "anthropic_comments_crlf.sse"))
		p, err := New(Config{Provider: tt.provider, BaseURL: srv.URL, APIKey: testKey, Model: "m", StreamIdleTimeout: tt.set})
		if err != nil {
			t.Fatal(err)
		}
		var got time.Duration
		switch p := p.(type) {
		case *Anthropic:
			got = p.ep.idle
		case *OpenAI:
			got = p.ep.idle
		}
		if got != tt.want {
			t.Errorf("%s with %v: idle %v, want %v", tt.provider, tt.set, got, tt.want)
		}
		if tt.provider == ProviderAnthropic {
			if _, _, err := p.Complete(context.Background(), simpleRequest); err != nil {
				t.Errorf("%s with %v: %v", tt.provider, tt.set, err)
			}
		}
	}
}
