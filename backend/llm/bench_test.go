package llm

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// tenKStream is a recorded-shape Anthropic answer of 10,000 SSE events: the
// envelope of testdata/anthropic_tool_use.sse with its text deltas repeated.
func tenKStream() ([]byte, int) {
	var b bytes.Buffer
	b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_014p7gG3wDgGV9EUtLvnow3U\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":472,\"output_tokens\":2},\"content\":[],\"stop_reason\":null}}\n\n")
	b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
	words := []string{"Okay", ",", " let", "'s", " check", " the", " weather", " for", " San", " Francisco", ",", " CA", ":"}
	const n = 10_000
	for i := 0; i < n-5; i++ {
		fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":%q}}\n\n", words[i%len(words)])
	}
	b.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
	b.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":9995}}\n\n")
	b.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	return b.Bytes(), n
}

// BenchmarkSSEReader measures the SSE reader alone on the 10k-event stream.
func BenchmarkSSEReader(b *testing.B) {
	body, n := tenKStream()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewSSEReader(bytes.NewReader(body))
		count := 0
		for {
			if _, err := r.Next(); err != nil {
				break
			}
			count++
		}
		if count != n {
			b.Fatalf("%d events", count)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkAnthropicParse measures SSE reading plus JSON decoding into
// events, without the network.
func BenchmarkAnthropicParse(b *testing.B) {
	body, n := tenKStream()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if err := parseAnthropic(bytes.NewReader(body), func(Event) bool { return true }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkSocketToChannel measures the whole path: an httptest server
// writes the 10k-event stream to a TCP socket, Stream parses it and the
// consumer receives every event from the channel. ns/event is the overhead
// per event from socket to channel.
func BenchmarkSocketToChannel(b *testing.B) {
	body, n := tenKStream()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	p, err := New(Config{Provider: ProviderAnthropic, BaseURL: srv.URL, APIKey: testKey})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		ch, err := p.Stream(context.Background(), simpleRequest)
		if err != nil {
			b.Fatal(err)
		}
		for range ch {
		}
	}
	perEvent := b.Elapsed() / time.Duration(b.N*n)
	b.ReportMetric(float64(perEvent.Nanoseconds()), "ns/event")
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
