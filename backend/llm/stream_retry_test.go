package llm

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Errors as providers send them inside a 200 stream. The overloaded one is
// Anthropic's documented example, byte for byte ("Error events" in its
// streaming docs; the end of testdata/anthropic_error_midstream.sse); the
// other Anthropic ones are written in its shape with the documented error
// types, the OpenAI-compatible ones with each server's error object.
const (
	anthropicOverloaded = "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n"
	anthropicAPIError   = "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"api_error\", \"message\": \"Internal server error\"}}\n\n"
	anthropicRateLimit  = "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"rate_limit_error\", \"message\": \"Number of request tokens has exceeded your per-minute rate limit\"}}\n\n"
	anthropicInvalid    = "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"invalid_request_error\", \"message\": \"messages: text content blocks must be non-empty\"}}\n\n"
	anthropicAuth       = "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"authentication_error\", \"message\": \"invalid x-api-key\"}}\n\n"
	anthropicPermission = "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"permission_error\", \"message\": \"Your API key does not have permission to use the specified resource.\"}}\n\n"

	openaiServerError  = "data: {\"error\": {\"message\": \"The server had an error while processing your request. Sorry about that!\", \"type\": \"server_error\", \"param\": null, \"code\": null}}\n\n"
	openaiRateLimit    = "data: {\"error\": {\"message\": \"Rate limit reached for requests\", \"type\": \"requests\", \"param\": null, \"code\": \"rate_limit_exceeded\"}}\n\n"
	openaiInvalid      = "data: {\"error\": {\"message\": \"Invalid 'messages[1].content': string too long.\", \"type\": \"invalid_request_error\", \"param\": \"messages\", \"code\": null}}\n\n"
	vllmBadRequest     = "data: {\"error\": {\"object\": \"error\", \"message\": \"max_tokens must be at least 1, got 0.\", \"type\": \"BadRequestError\", \"param\": null, \"code\": 400}}\n\n"
	litellmUnavailable = "data: {\"error\": {\"message\": \"upstream unavailable\", \"type\": \"None\", \"param\": \"None\", \"code\": \"503\"}}\n\n"
)

// TestInStreamErrorRetries: an error the provider reports inside the stream
// before any part of the answer is retried like the same error as an HTTP
// status, and a stream that breaks off then like a failed connection; after
// part of the answer either ends the call, the partial kept.
func TestInStreamErrorRetries(t *testing.T) {
	t.Parallel()
	sse := map[string]string{"Content-Type": "text/event-stream"}
	stream := func(body string) reply { return reply{200, sse, body} }
	withAfter := func(r reply, v string) reply {
		r.header = map[string]string{"Content-Type": "text/event-stream", "Retry-After": v}
		return r
	}
	okAnthropic := stream(string(readFixture(t, "anthropic_comments_crlf.sse")))
	okOpenAI := stream(string(readFixture(t, "openai_comments_crlf.sse")))
	anthropicEvents := []string{"text Hi", "usage in=5 out=2 cr=0 cw=0", "stop end_turn"}
	openaiEvents := []string{"text Hello", "text , world", "usage in=12 out=3 cr=8 cw=0", "stop end_turn"}
	retried := func(notice string, events []string) []string { return append([]string{"retry " + notice}, events...) }
	tests := []struct {
		name     string
		provider string
		replies  []reply
		attempts int
		delays   []time.Duration
		want     []string // events; the last one is checked against msg when it is an error
		msg      []string // parts of the error sentence
	}{
		{"overloaded_error then an answer", ProviderAnthropic,
			[]reply{stream(anthropicStart + anthropicPing + anthropicOverloaded), okAnthropic}, 2,
			[]time.Duration{750 * time.Millisecond}, retried("retrying in 750 ms (overloaded)", anthropicEvents), nil},
		{"overloaded_error as the whole stream", ProviderAnthropic,
			[]reply{stream(anthropicOverloaded), okAnthropic}, 2,
			nil, retried("retrying in 750 ms (overloaded)", anthropicEvents), nil},
		{"api_error then an answer", ProviderAnthropic,
			[]reply{stream(anthropicStart + anthropicAPIError), okAnthropic}, 2,
			nil, retried("retrying in 750 ms (server error)", anthropicEvents), nil},
		{"rate_limit_error with retry-after then an answer", ProviderAnthropic,
			[]reply{withAfter(stream(anthropicStart+anthropicRateLimit), "2"), okAnthropic}, 2,
			[]time.Duration{2 * time.Second}, retried("retrying in 2 s (rate limited)", anthropicEvents), nil},
		{"overloaded_error every time", ProviderAnthropic,
			[]reply{stream(anthropicStart + anthropicOverloaded)}, 4, nil,
			[]string{"retry retrying in 750 ms (overloaded)", "retry retrying in 2 s (overloaded)", "retry retrying in 3 s (overloaded)", "error overloaded partial=false"},
			[]string{"is having trouble (overloaded_error): Overloaded and still failed after 3 retries; try again in a few minutes."}},
		{"rate_limit_error every time", ProviderAnthropic,
			[]reply{stream(anthropicRateLimit)}, 4, nil,
			[]string{"retry retrying in 750 ms (rate limited)", "retry retrying in 2 s (rate limited)", "retry retrying in 3 s (rate limited)", "error rate_limit partial=false"},
			[]string{"is rate limiting requests (rate_limit_error): Number of request tokens", "still failed after 3 retries"}},
		{"invalid_request_error is not retried", ProviderAnthropic,
			[]reply{stream(anthropicStart + anthropicInvalid), okAnthropic}, 1, nil,
			[]string{"error bad_request partial=false"},
			[]string{"rejected the request (invalid_request_error): messages: text content blocks must be non-empty."}},
		{"authentication_error is not retried", ProviderAnthropic,
			[]reply{stream(anthropicStart + anthropicAuth), okAnthropic}, 1, nil,
			[]string{"error auth partial=false"},
			[]string{"rejected the API key (authentication_error): invalid x-api-key. Check the key: it is set with the ANTHROPIC_API_KEY"}},
		{"permission_error is not retried", ProviderAnthropic,
			[]reply{stream(anthropicStart + anthropicPermission), okAnthropic}, 1, nil,
			[]string{"error permission partial=false"},
			[]string{"refused the request (permission_error): Your API key does not have permission"}},
		{"overloaded_error after part of the answer", ProviderAnthropic,
			[]reply{stream(string(readFixture(t, "anthropic_error_midstream.sse"))), okAnthropic}, 1, nil,
			[]string{"text Here is the", "text  beginning", "error overloaded partial=true"},
			[]string{"is having trouble (overloaded_error): Overloaded; try again in a few minutes. The partial answer was kept."}},
		{"openai server_error then an answer", ProviderOpenAI,
			[]reply{stream(openaiServerError), okOpenAI}, 2,
			nil, retried("retrying in 750 ms (server error)", openaiEvents), nil},
		{"openai rate_limit_exceeded then an answer", ProviderOpenAI,
			[]reply{stream(openaiRateLimit), okOpenAI}, 2,
			nil, retried("retrying in 750 ms (rate limited)", openaiEvents), nil},
		{"litellm code 503 then an answer", ProviderOpenAI,
			[]reply{stream(litellmUnavailable), okOpenAI}, 2,
			nil, retried("retrying in 750 ms (server error)", openaiEvents), nil},
		{"openai invalid_request_error is not retried", ProviderOpenAI,
			[]reply{stream(openaiInvalid), okOpenAI}, 1, nil,
			[]string{"error bad_request partial=false"},
			[]string{"rejected the request (invalid_request_error): Invalid 'messages[1].content': string too long."}},
		{"vllm code 400 is not retried", ProviderOpenAI,
			[]reply{stream(vllmBadRequest), okOpenAI}, 1, nil,
			[]string{"error bad_request partial=false"},
			[]string{"rejected the request (BadRequestError): max_tokens must be at least 1, got 0."}},
		{"openai server_error after part of the answer", ProviderOpenAI,
			[]reply{stream(openaiHel + openaiServerError), okOpenAI}, 1, nil,
			[]string{"text Hel", "error server partial=true"},
			[]string{"is having trouble (server_error): The server had an error", "The partial answer was kept."}},
		{"anthropic stream cut before any content then an answer", ProviderAnthropic,
			[]reply{stream(anthropicStart + anthropicPing), okAnthropic}, 2,
			[]time.Duration{750 * time.Millisecond}, retried("retrying in 750 ms (connection broke off)", anthropicEvents), nil},
		{"openai stream cut before any content then an answer", ProviderOpenAI,
			[]reply{stream(""), okOpenAI}, 2,
			nil, retried("retrying in 750 ms (connection broke off)", openaiEvents), nil},
		{"stream cut before any content every time", ProviderAnthropic,
			[]reply{stream(anthropicStart)}, 4, nil,
			[]string{"retry retrying in 750 ms (connection broke off)", "retry retrying in 2 s (connection broke off)", "retry retrying in 3 s (connection broke off)", "error stream_cut partial=false"},
			[]string{"broke off before the answer began (unexpected EOF) and still failed after 3 retries; try again, or check the network connection."}},
		{"stream cut after part of the answer is not retried", ProviderOpenAI,
			[]reply{stream(openaiHel), okOpenAI}, 1, nil,
			[]string{"text Hel", "error stream_cut partial=true"},
			[]string{"broke off in the middle of the answer (unexpected EOF); try again, or check the network connection. The partial answer was kept."}},
		{"openai error after a tool call began", ProviderOpenAI,
			[]reply{stream("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"function\":{\"name\":\"read_file\",\"arguments\":\"\"}}]}}]}\n\n" + openaiServerError), okOpenAI}, 1, nil,
			[]string{"tool_start call_1 read_file", "error server partial=true"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, n := scriptedServer(t, tt.replies...)
			clock := &noSleep{}
			ch, err := newProvider(t, tt.provider, srv.URL, clock.policy()).Stream(context.Background(), simpleRequest)
			if err != nil {
				t.Fatal(err)
			}
			got, last := events(ch)
			diffLines(t, got, tt.want)
			if int(n.Load()) != tt.attempts {
				t.Errorf("requests = %d, want %d", n.Load(), tt.attempts)
			}
			if tt.delays != nil && !equalDurations(clock.got(), tt.delays) {
				t.Errorf("delays = %v, want %v", clock.got(), tt.delays)
			}
			for _, part := range tt.msg {
				if last.Err == nil || !strings.Contains(last.Err.Error(), part) {
					t.Errorf("error %q does not contain %q", last.Err, part)
				}
			}
		})
	}
}

// TestInStreamErrorComplete: Complete, which streams, gets the answer of
// the retry.
func TestInStreamErrorComplete(t *testing.T) {
	t.Parallel()
	srv, n := scriptedServer(t,
		reply{200, map[string]string{"Content-Type": "text/event-stream"}, anthropicOverloaded},
		reply{200, map[string]string{"Content-Type": "text/event-stream"}, string(readFixture(t, "anthropic_comments_crlf.sse"))})
	text, _, err := newProvider(t, ProviderAnthropic, srv.URL, (&noSleep{}).policy()).Complete(context.Background(), simpleRequest)
	if err != nil || text != "Hi" || n.Load() != 2 {
		t.Errorf("Complete = %q, %v after %d requests", text, err, n.Load())
	}
}
