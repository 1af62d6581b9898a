package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// leaked returns the stacks of goroutines of the stream pump or of the
// HTTP client's connections that are still alive.
func leaked() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "llm.(*endpoint).stream") || strings.Contains(g, "net/http.(*persistConn)") {
			out = append(out, g)
		}
	}
	return out
}

// waitNoLeaks polls until the goroutines are gone (they need a moment to
// unwind after the channel is closed).
func waitNoLeaks(t *testing.T, transport *http.Transport) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		transport.CloseIdleConnections() // pooled keep-alive connections are not leaks
		l := leaked()
		if len(l) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines leaked:\n%s", len(l), strings.Join(l, "\n\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCancelMidStream is not parallel: it counts goroutines.
func TestCancelMidStream(t *testing.T) {
	serverSawClose := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\n"))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the model "thinks" until the client goes away
		close(serverSawClose)
	}))
	defer srv.Close()
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	p, err := New(Config{Provider: ProviderAnthropic, BaseURL: srv.URL, APIKey: testKey, HTTPClient: &http.Client{Transport: transport}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := p.Stream(ctx, simpleRequest)
	if err != nil {
		t.Fatal(err)
	}
	if ev := <-ch; ev.Type != EventTextDelta || ev.Text != "Hel" {
		t.Fatalf("first event %s", describe(ev))
	}
	start := time.Now()
	cancel()
	for ev := range ch {
		if ev.Type != EventError || !errors.Is(ev.Err, ErrCancelled) {
			t.Errorf("after cancel: %s", describe(ev))
		}
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("channel closed %v after cancel", d)
	}
	select {
	case <-serverSawClose:
	case <-time.After(time.Second):
		t.Fatal("the server never saw the connection close")
	}
	waitNoLeaks(t, transport)
}

// TestCancelDuringRetrySleep: cancelling while waiting to retry ends the
// stream at once.
func TestCancelDuringRetrySleep(t *testing.T) {
	srv, _ := scriptedServer(t, reply{status: 503})
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	p, err := New(Config{Provider: ProviderAnthropic, BaseURL: srv.URL, APIKey: testKey, HTTPClient: &http.Client{Transport: transport},
		Retry: RetryPolicy{BaseDelay: time.Hour, MaxDelay: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := p.Stream(ctx, simpleRequest)
	if err != nil {
		t.Fatal(err)
	}
	if ev := <-ch; ev.Type != EventRetry {
		t.Fatalf("first event %s", describe(ev))
	}
	start := time.Now()
	cancel()
	for range ch {
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("channel closed %v after cancel", d)
	}
	waitNoLeaks(t, transport)
}

// TestAbandonedConsumer: a consumer that stops reading and cancels does not
// leave the pump blocked on a full channel.
func TestAbandonedConsumer(t *testing.T) {
	body, _ := bigStream()
	srv := replayServer(t, body)
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	p, err := New(Config{Provider: ProviderAnthropic, BaseURL: srv.URL, APIKey: testKey, HTTPClient: &http.Client{Transport: transport}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := p.Stream(ctx, simpleRequest); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // let the channel fill up
	cancel()
	waitNoLeaks(t, transport)
}
