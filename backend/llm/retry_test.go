package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type reply struct {
	status int
	header map[string]string
	body   string
}

// scriptedServer answers attempt i with replies[i], and the last reply
// after that; it counts attempts.
func scriptedServer(t *testing.T, replies ...reply) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		rep := replies[min(i, len(replies)-1)]
		for k, v := range rep.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(rep.status)
		_, _ = w.Write([]byte(rep.body))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestRetriesAndErrors(t *testing.T) {
	t.Parallel()
	ok := reply{200, map[string]string{"Content-Type": "text/event-stream"}, string(readFixture(t, "anthropic_comments_crlf.sse"))}
	okEvents := []string{"text Hi", "usage in=5 out=2 cr=0 cw=0", "stop end_turn"}
	rateLimited := reply{429, nil, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`}
	withAfter := func(r reply, v string) reply { r.header = map[string]string{"retry-after": v}; return r }
	overloaded := reply{529, nil, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}
	tests := []struct {
		name     string
		provider string
		replies  []reply
		attempts int
		delays   []time.Duration
		want     []string // events; the last one is checked against msg when it is an error
		msg      []string // parts of the error sentence
	}{
		{"429 with retry-after then ok", ProviderAnthropic, []reply{withAfter(rateLimited, "2"), ok}, 2,
			[]time.Duration{2 * time.Second}, append([]string{"retry retrying in 2 s (rate limited)"}, okEvents...), nil},
		{"429 with retry-after date", ProviderAnthropic, []reply{withAfter(rateLimited, "Wed, 01 Jan 2025 12:00:07 GMT"), ok}, 2,
			[]time.Duration{7 * time.Second}, append([]string{"retry retrying in 7 s (rate limited)"}, okEvents...), nil},
		{"429 without retry-after, gives up after 3 retries", ProviderAnthropic, []reply{rateLimited}, 4,
			[]time.Duration{750 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second},
			[]string{"retry retrying in 750 ms (rate limited)", "retry retrying in 2 s (rate limited)", "retry retrying in 3 s (rate limited)", "error rate_limit partial=false"},
			[]string{"is rate limiting requests (429)", "per-minute rate limit", "still failed after 3 retries", "check your plan"}},
		{"429 asking for too long is not retried", ProviderAnthropic, []reply{withAfter(rateLimited, "600")}, 1, nil,
			[]string{"error rate_limit partial=false"}, []string{"it asked to wait 10 min"}},
		{"529 then ok", ProviderAnthropic, []reply{overloaded, ok}, 2, []time.Duration{750 * time.Millisecond},
			append([]string{"retry retrying in 750 ms (overloaded)"}, okEvents...), nil},
		{"529 always", ProviderAnthropic, []reply{overloaded}, 4, nil,
			[]string{"retry retrying in 750 ms (overloaded)", "retry retrying in 2 s (overloaded)", "retry retrying in 3 s (overloaded)", "error overloaded partial=false"},
			[]string{"is having trouble (529 overloaded_error): Overloaded and still failed after 3 retries; try again in a few minutes."}},
		{"500 then ok", ProviderAnthropic, []reply{{500, nil, "internal error"}, ok}, 2, nil,
			append([]string{"retry retrying in 750 ms (server error 500)"}, okEvents...), nil},
		{"401 is not retried", ProviderAnthropic, []reply{{401, nil, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`}}, 1, nil,
			[]string{"error auth partial=false"},
			[]string{"rejected the API key (401 authentication_error): invalid x-api-key. Check the key: it is set with the ANTHROPIC_API_KEY environment variable"}},
		{"400 shows the provider message", ProviderAnthropic, []reply{{400, nil, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: must be greater than or equal to 1"}}`}}, 1, nil,
			[]string{"error bad_request partial=false"},
			[]string{"rejected the request (400 invalid_request_error): max_tokens: must be greater than or equal to 1."}},
		{"400 prompt too long", ProviderAnthropic, []reply{{400, nil, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`}}, 1, nil,
			[]string{"error context_too_long partial=false"}, []string{"too long for the model's context window", "compact it"}},
		{"openai 401 echoing the key is redacted", ProviderOpenAI, []reply{{401, nil, `{"error":{"message":"Incorrect API key provided: ` + testKey + `.","type":"invalid_request_error","code":"invalid_api_key"}}`}}, 1, nil,
			[]string{"error auth partial=false"}, []string{"The model server at 127.0.0.1", "[REDACTED]", "OPENAI_API_KEY"}},
		{"openai context length", ProviderOpenAI, []reply{{400, nil, `{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`}}, 1, nil,
			[]string{"error context_too_long partial=false"}, nil},
		{"ollama string error", ProviderOpenAI, []reply{{404, nil, `{"error":"model \"llama9\" not found, try pulling it first"}`}}, 1, nil,
			[]string{"error not_found partial=false"}, []string{`answered 404: model "llama9" not found, try pulling it first; check the model name`}},
		{"200 with a JSON error", ProviderOpenAI, []reply{{200, map[string]string{"Content-Type": "application/json"}, `{"error":{"message":"quota exceeded","type":"insufficient_quota"}}`}}, 1, nil,
			[]string{"error permission partial=false"}, []string{"quota exceeded"}},
		{"200 with a non-streamed answer", ProviderOpenAI, []reply{{200, map[string]string{"Content-Type": "application/json"}, `{"choices":[{"message":{"content":"hi"}}]}`}}, 1, nil,
			[]string{"error invalid_response partial=false"}, []string{"instead of a stream"}},
		{"503 html page", ProviderOpenAI, []reply{{503, nil, "<html>down</html>"}}, 4, nil,
			[]string{"retry retrying in 750 ms (server error 503)", "retry retrying in 2 s (server error 503)", "retry retrying in 3 s (server error 503)", "error server partial=false"},
			[]string{"is having trouble (503)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, n := scriptedServer(t, tt.replies...)
			clock := &noSleep{}
			p := newProvider(t, tt.provider, srv.URL, clock.policy())
			ctx := context.Background()
			ch, err := p.Stream(ctx, simpleRequest)
			if err != nil {
				t.Fatal(err)
			}
			got, last := events(ch)
			diffLines(t, got, tt.want)
			if int(n.Load()) != tt.attempts {
				t.Errorf("attempts = %d, want %d", n.Load(), tt.attempts)
			}
			if tt.delays != nil && !equalDurations(clock.got(), tt.delays) {
				t.Errorf("delays = %v, want %v", clock.got(), tt.delays)
			}
			for _, part := range tt.msg {
				if last.Err == nil || !strings.Contains(last.Err.Error(), part) {
					t.Errorf("error %q does not contain %q", last.Err, part)
				}
			}
			if last.Err != nil && strings.Contains(last.Err.Error(), testKey) {
				t.Errorf("the key leaked: %q", last.Err)
			}
		})
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNetworkErrorRetriesThenTeaches(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	clock := &noSleep{}
	_, _, err := newProvider(t, ProviderAnthropic, url, clock.policy()).Complete(context.Background(), simpleRequest)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindNetwork || e.Attempts != 4 || len(clock.got()) != 3 {
		t.Fatalf("err = %v (%+v), delays %v", err, e, clock.got())
	}
	if !errors.Is(err, ErrNetwork) || !strings.Contains(err.Error(), "Could not reach 127.0.0.1") {
		t.Errorf("message = %q", err)
	}
}

func TestNoRetriesWhenDisabled(t *testing.T) {
	t.Parallel()
	srv, n := scriptedServer(t, reply{status: 503})
	policy := (&noSleep{}).policy()
	policy.MaxRetries = -1
	_, _, err := newProvider(t, ProviderOpenAI, srv.URL, policy).Complete(context.Background(), simpleRequest)
	if !errors.Is(err, ErrServer) || n.Load() != 1 {
		t.Errorf("err = %v after %d attempts", err, n.Load())
	}
}

func TestBackoffGrowsAndIsCapped(t *testing.T) {
	t.Parallel()
	p := RetryPolicy{Jitter: func() float64 { return 0.999999 }, MaxDelay: 5 * time.Second}
	prev := time.Duration(0)
	for n := 1; n <= 10; n++ {
		d := p.backoff(n)
		if d < prev || d > 5*time.Second {
			t.Errorf("backoff(%d) = %v after %v", n, d, prev)
		}
		prev = d
	}
	if lo := (RetryPolicy{Jitter: func() float64 { return 0 }}).backoff(1); lo != 500*time.Millisecond {
		t.Errorf("lowest first backoff = %v", lo)
	}
}

func TestRetryAfterHeader(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		h    map[string]string
		want time.Duration
	}{
		{map[string]string{"Retry-After": "3"}, 3 * time.Second},
		{map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{map[string]string{"Retry-After": "Wed, 01 Jan 2025 12:01:00 GMT"}, time.Minute},
		{map[string]string{"Retry-After": "Wed, 01 Jan 2025 11:00:00 GMT"}, 0},
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{"Retry-After": "-1"}, 0},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond},
		{nil, 0},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.h {
			h.Set(k, v)
		}
		if got := retryAfter(h, now); got != tt.want {
			t.Errorf("retryAfter(%v) = %v, want %v", tt.h, got, tt.want)
		}
	}
}
