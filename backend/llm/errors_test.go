package llm

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestErrorHuman(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  *Error
		want string
	}{
		{&Error{Kind: KindAuth, Provider: "anthropic", Host: "api.anthropic.com", Status: 401, Type: "authentication_error", Message: "invalid x-api-key", KeyHint: anthropicKeyHint},
			"Anthropic rejected the API key (401 authentication_error): invalid x-api-key. Check the key: it is set with the ANTHROPIC_API_KEY environment variable, TS_AGENT_API_KEY in the project's .env, or Settings."},
		{&Error{Kind: KindAuth, Provider: "anthropic", KeyHint: anthropicKeyHint},
			"Anthropic needs an API key and none is set; set it with the ANTHROPIC_API_KEY environment variable, TS_AGENT_API_KEY in the project's .env, or Settings."},
		{&Error{Kind: KindRateLimit, Provider: "openai", Host: "api.openai.com", Status: 429, RetryAfter: 20 * time.Second, Attempts: 4},
			"OpenAI is rate limiting requests (429) and still failed after 3 retries; it asked to wait 20 s, try again then."},
		{&Error{Kind: KindServer, Provider: "openai", Host: "localhost:11434", Status: 502, Attempts: 1},
			"The model server at localhost:11434 is having trouble (502); try again in a few minutes."},
		{&Error{Kind: KindNetwork, Provider: "openai", Host: "localhost:1234", Err: errors.New("dial tcp: connection refused"), Attempts: 4},
			"Could not reach localhost:1234 (dial tcp: connection refused) and still failed after 3 retries; check the network connection and the base URL in Settings."},
		{&Error{Kind: KindStreamCut, Provider: "anthropic", Err: errors.New("unexpected EOF"), Partial: true, PartialText: true},
			"The connection to Anthropic broke off in the middle of the answer (unexpected EOF); try again, or check the network connection. The partial answer was kept."},
		{&Error{Kind: KindOverloaded, Provider: "anthropic", Type: "overloaded_error", Message: "Overloaded", Partial: true, PartialText: true},
			"Anthropic is having trouble (overloaded_error): Overloaded; try again in a few minutes. The partial answer was kept."},
		{&Error{Kind: KindStalled, Provider: "anthropic", Err: silence(90 * time.Second), Partial: true, PartialText: true, Attempts: 1},
			"Anthropic went silent in the middle of the answer (nothing arrived for 90 s); try again, or check the network connection. The partial answer was kept."},
		{&Error{Kind: KindStalled, Provider: "openai", Host: "localhost:11434", Err: silence(5 * time.Minute), Attempts: 4},
			"The model server at localhost:11434 went silent (nothing arrived for 5 min) and still failed after 3 retries; try again, or check the network connection."},
		// Only thinking arrived: no partial answer to speak of.
		{&Error{Kind: KindStreamCut, Provider: "openai", Host: "openrouter.ai", Err: errors.New("unexpected EOF"), Partial: true},
			"The connection to the model server at openrouter.ai broke off in the middle of the answer (unexpected EOF); try again, or check the network connection."},
		// An in-stream error with neither status nor type says nothing in parentheses.
		{&Error{Kind: KindBadRequest, Provider: "openai", Host: "localhost:8000", Message: "bad things"},
			"The model server at localhost:8000 rejected the request: bad things."},
		{&Error{Kind: KindCancelled, Err: context.Canceled}, "The request was cancelled."},
		{&Error{Kind: KindContextTooLong, Message: "prompt is too long: 210000 tokens > 200000 maximum"},
			"The conversation is too long for the model's context window: prompt is too long: 210000 tokens > 200000 maximum; compact it or start a new session."},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}

func TestErrorIs(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("turn failed: %w", &Error{Kind: KindCancelled, Err: context.Canceled})
	if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) || errors.Is(err, ErrAuth) {
		t.Error("errors.Is does not see the kind and the cause")
	}
	for kind, sentinel := range kindSentinel {
		if !errors.Is(&Error{Kind: kind}, sentinel) {
			t.Errorf("%s does not match its sentinel", kind)
		}
	}
}
