package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// A message that alone would not fit in the window is refused before it
// is saved or sent, with a sentence that says how big it is and what to do.
func TestSendRefusesAMessageBiggerThanTheWindow(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{}, setup{opt: Options{ContextWindow: 200000}})
	err := h.m.Send(context.Background(), h.sess.ID, strings.Repeat("x", 1000000), nil)
	var tl *MessageTooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("Send: %v, want MessageTooLargeError", err)
	}
	if want := "This message is about 250k tokens, too big for the model's 200k-token context window"; !strings.HasPrefix(err.Error(), want) ||
		!strings.Contains(err.Error(), "Attach the file with @") {
		t.Errorf("error %q", err)
	}
	if n := len(h.messages()); n != 0 {
		t.Errorf("%d messages saved, want none", n)
	}
	if n := len(h.srv.Requests()); n != 0 {
		t.Errorf("%d requests, want none", n)
	}
	// Half the window is still accepted.
	if err := checkSize([]llm.ContentBlock{llm.TextBlock(strings.Repeat("x", 390000))}, 200000); err != nil {
		t.Errorf("a message under half the window: %v", err)
	}
}

// An approved write_file bigger than the window stays whole in the store,
// and the session can still call the model: what is sent holds the start
// of the content and a note.
func TestOversizedToolInputIsElidedFromRequests(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("0123456789abcdef\n", 12000) // 204,000 characters: 51k tokens
	input, _ := json.Marshal(map[string]string{"path": "big.txt", "content": big})
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("w1", "write_file", string(input))}, When: &fakellm.When{LastUserContains: "write"}},
				{Text: "Written.", When: &fakellm.When{HasToolResult: true}},
				{Text: "Still here.", When: &fakellm.When{LastUserContains: "next"}},
			}}, setup{mode: "all", opt: Options{ContextWindow: 40000}})
			if r := h.turn("write the big file"); r != ReasonEndTurn {
				t.Fatalf("first turn: %s %+v", r, h.rec.events(wire.AgentError))
			}
			if r := h.turn("next question"); r != ReasonEndTurn {
				t.Fatalf("second turn: %s %+v", r, h.rec.events(wire.AgentError))
			}
			if got := h.read("big.txt"); got != big {
				t.Fatalf("file has %d characters, want %d", len(got), len(big))
			}
			reqs := h.srv.Requests()
			last, _ := json.Marshal(reqs[len(reqs)-1].Body)
			if len(last) > 60000 {
				t.Errorf("the last request is %d bytes: the input was not elided", len(last))
			}
			if !strings.Contains(string(last), "[Pilot: the content field was 204000 characters") {
				t.Errorf("no note in the request: %.400s", last)
			}
			stored := false
			for _, m := range h.messages() {
				for _, b := range m.Content {
					var in struct{ Content string }
					if b.Type == llm.BlockToolUse && json.Unmarshal(b.Input, &in) == nil && in.Content == big {
						stored = true
					}
				}
			}
			if !stored {
				t.Error("the store lost the whole input")
			}
		})
	}
}

// Retry after a failed call sends the same history again: the user's
// message is neither saved nor sent twice.
func TestRetryRunsTheFailedTurnWithoutRepeatingTheMessage(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Fault: &fakellm.Fault{Status: 401}},
				{Text: "The answer."},
			}}, setup{})
			if r := h.turn("what is up?"); r != ReasonError {
				t.Fatalf("first try: %s", r)
			}
			if err := h.m.Retry(context.Background(), h.sess.ID); err != nil {
				t.Fatal(err)
			}
			if r := h.wait(); r != ReasonEndTurn {
				t.Fatalf("retry: %s %+v", r, h.rec.events(wire.AgentError))
			}
			users := 0
			for _, m := range h.messages() {
				if m.Role == llm.RoleUser {
					users++
				}
			}
			if users != 1 {
				t.Errorf("%d user messages saved, want 1", users)
			}
			reqs := h.srv.Requests()
			body, _ := json.Marshal(reqs[len(reqs)-1].Body)
			if n := strings.Count(string(body), "what is up?"); n != 1 {
				t.Errorf("the retried request holds the question %d times: %s", n, body)
			}
			if err := h.m.Retry(context.Background(), h.sess.ID); !errors.Is(err, ErrNothingToRetry) {
				t.Errorf("retry after an answer: %v", err)
			}
		})
	}
}

// Every error the user is shown is logged with the session, the provider,
// the HTTP status and the server's request id; keys never are.
func TestErrorsAreLogged(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{Fault: &fakellm.Fault{Status: 401}},
	}}, setup{})
	if r := h.turn("hello"); r != ReasonError {
		t.Fatalf("turn: %s", r)
	}
	if err := h.m.CompactNow(context.Background(), h.sess.ID); !errors.Is(err, ErrNothingToCompact) {
		t.Fatalf("compact: %v", err)
	}
	logs := h.logs.String()
	for _, want := range []string{
		`msg="turn failed" session=` + fmt.Sprint(h.sess.ID), "provider=anthropic", "status=401", "request_id=req_fake_1", "kind=auth",
		`msg="compaction failed" session=` + fmt.Sprint(h.sess.ID), "too short to compact",
	} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, "sk-test") {
		t.Errorf("the key is in the log:\n%s", logs)
	}
}

// A network failure is logged with its host and kind.
func TestNetworkErrorIsLogged(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderOpenAI, fakellm.Script{}, setup{})
	h.srv.Close() // connection refused from now on
	if r := h.turn("hello"); r != ReasonError {
		t.Fatalf("turn: %s", r)
	}
	logs := h.logs.String()
	for _, want := range []string{`msg="turn failed"`, "provider=openai", "kind=network", "status=0", "connection refused"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
}

// The sentinels reach the user as they are: sentences without a package
// prefix.
func TestSentinelsAreSentences(t *testing.T) {
	t.Parallel()
	for _, err := range []error{ErrBusy, ErrEmpty, ErrNothingToCompact, ErrNothingToRetry, ErrShuttingDown} {
		s := err.Error()
		if strings.Contains(s, "agent:") || s[0] < 'A' || s[0] > 'Z' || !strings.HasSuffix(s, ".") {
			t.Errorf("%q is not a sentence for the user", s)
		}
	}
}

// A session whose client cannot be made (no API key) refuses the message
// before saving it: the session stays empty.
func TestSendWithoutAKeyLeavesTheSessionEmpty(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{}, setup{})
	h.m.provider = func(context.Context, store.Session) (Model, error) {
		return Model{}, &llm.Error{Kind: llm.KindAuth, Provider: "anthropic", KeyHint: "ANTHROPIC_API_KEY"}
	}
	err := h.m.Send(context.Background(), h.sess.ID, "hello", nil)
	if err == nil || !strings.Contains(err.Error(), "needs an API key") {
		t.Fatalf("Send: %v", err)
	}
	if n := len(h.messages()); n != 0 {
		t.Errorf("%d messages saved, want none", n)
	}
}
