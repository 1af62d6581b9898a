package llm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy says how failed calls are retried. Only failures before any
// part of an answer arrived are retried: HTTP 429, 500, 502, 503, 504, 529,
// the same errors reported inside a stream (overloaded_error, api_error,
// rate_limit_error...), connection errors, and a server that went silent
// (see Config.StreamIdleTimeout). Groq's tool_use_failed (the model wrote a
// malformed tool call) is retried once, within these retries. The zero value is the default policy.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt; 0 means
	// 3, a negative value means none.
	MaxRetries int
	// BaseDelay is the first backoff delay, doubled on every retry (default
	// 1 s); MaxDelay caps it (default 30 s).
	BaseDelay, MaxDelay time.Duration
	// MaxRetryAfter is the longest retry-after the client waits for (default
	// 60 s); a longer demand ends the call with an error that says when to
	// try again.
	MaxRetryAfter time.Duration
	// Sleep waits for d or until ctx is done (tests make it instant).
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock used to read retry-after dates (default time.Now).
	Now func() time.Time
	// Jitter returns a number in [0, 1) (default math/rand/v2.Float64).
	Jitter func() float64
}

func (p RetryPolicy) maxRetries() int {
	switch {
	case p.MaxRetries < 0:
		return 0
	case p.MaxRetries == 0:
		return 3
	}
	return p.MaxRetries
}

func (p RetryPolicy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p RetryPolicy) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// backoff returns the delay before retry number n (1-based): exponential
// with "equal jitter", so between half and all of BaseDelay*2^(n-1).
func (p RetryPolicy) backoff(n int) time.Duration {
	base, maxDelay := p.BaseDelay, p.MaxDelay
	if base <= 0 {
		base = time.Second
	}
	if maxDelay <= 0 {
		maxDelay = 30 * time.Second
	}
	d := base
	for i := 1; i < n && d < maxDelay; i++ {
		d *= 2
	}
	d = min(d, maxDelay)
	j := rand.Float64
	if p.Jitter != nil {
		j = p.Jitter
	}
	return d/2 + time.Duration(j()*float64(d/2))
}

func (p RetryPolicy) maxRetryAfter() time.Duration {
	if p.MaxRetryAfter > 0 {
		return p.MaxRetryAfter
	}
	return time.Minute
}

// retryAfter reads retry-after-ms, or retry-after in seconds or as an HTTP
// date; it returns 0 when the server said nothing usable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// String says what the UI shows, e.g. "retrying in 4 s (rate limited)".
func (r RetryInfo) String() string {
	return fmt.Sprintf("retrying in %s (%s)", roundDuration(time.Duration(r.Delay)*time.Millisecond), r.Reason)
}

// retryReason is the short reason of a RetryInfo.
func retryReason(e *Error) string {
	switch e.Kind {
	case KindRateLimit:
		return "rate limited"
	case KindOverloaded:
		return "overloaded"
	case KindNetwork:
		return "connection failed"
	case KindStalled:
		return fmt.Sprint(e.Err) // "nothing arrived for 90 s"
	case KindStreamCut:
		return "connection broke off"
	}
	if e.Type == codeToolUseFailed {
		return "the model wrote a malformed tool call"
	}
	if e.Status < 500 { // reported inside a 2xx answer
		return "server error"
	}
	return fmt.Sprintf("server error %d", e.Status)
}
