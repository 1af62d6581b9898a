package agent

import (
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/wire"
)

// TestSilentStream: a server that goes silent before answering is retried;
// one that goes silent in the middle of the answer ends the turn with a
// retryable error, keeping the partial answer, and the next turn works.
func TestSilentStream(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format+"/before the answer", func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Text: "never", Fault: &fakellm.Fault{StallAfterEvents: 1}},
				{Text: "Here I am."},
			}}, setup{idle: 200 * time.Millisecond})
			if r := h.turn("Hello"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			if n := h.rec.notices("retry"); len(n) != 1 || !strings.Contains(n[0], "nothing arrived for 200 ms") {
				t.Errorf("retry notices %v", n)
			}
			ms := h.messages()
			if len(ms) != 2 || ms[1].Content[0].Text != "Here I am." {
				t.Errorf("messages %+v", ms)
			}
		})
		t.Run(format+"/in the middle of the answer", func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Text: "one two three four five", Fault: &fakellm.Fault{StallAfterEvents: 5}},
				{Text: "Back."},
			}}, setup{idle: 2 * time.Second}) // long enough that a loaded machine never stalls before the fault
			if r := h.turn("Count"); r != ReasonError {
				t.Fatalf("reason %s", r)
			}
			errs := h.rec.events(wire.AgentError)
			if len(errs) != 1 {
				t.Fatalf("errors %+v", errs)
			}
			e := errs[0].(wire.ErrorPayload)
			if e.Kind != wire.ErrorKind(llm.KindStalled) || !e.Retryable ||
				!strings.Contains(e.Message, "went silent in the middle of the answer (nothing arrived for 2 s)") ||
				!strings.HasSuffix(e.Message, "The partial answer was kept.") {
				t.Errorf("error %+v", e)
			}
			ms := h.messages()
			last := ms[len(ms)-1]
			if last.State != wire.MessageInterrupted || !strings.HasPrefix(last.Content[0].Text, "one two") || strings.Contains(last.Content[0].Text, "five") {
				t.Errorf("partial answer %+v", last)
			}
			if len(h.srv.Requests()) != 1 {
				t.Errorf("a partial answer was retried: %d calls", len(h.srv.Requests()))
			}
			if r := h.turn("Again"); r != ReasonEndTurn {
				t.Fatalf("after the stall: %s", r)
			}
		})
	}
}

// TestErrorEventInStream: an error the provider reports inside the stream
// before any part of the answer (Anthropic's `event: error`, an OpenAI error
// chunk) is retried with a notice like the same HTTP status; one that is
// not retryable, or comes after part of the answer, ends the turn.
func TestErrorEventInStream(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format+"/overloaded before the answer", func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Text: "never", Fault: &fakellm.Fault{ErrorAfterEvents: 1}},
				{Text: "Here I am."},
			}}, setup{})
			if r := h.turn("Hello"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			if n := h.rec.notices("retry"); len(n) != 1 || !strings.Contains(n[0], "(overloaded)") {
				t.Errorf("retry notices %v", n)
			}
			ms := h.messages()
			if len(ms) != 2 || len(ms[1].Content) != 1 || ms[1].Content[0].Text != "Here I am." {
				t.Errorf("messages %+v", ms)
			}
			if n := len(h.srv.Requests()); n != 2 {
				t.Errorf("%d calls, want 2", n)
			}
		})
		t.Run(format+"/not retryable before the answer", func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Text: "never", Fault: &fakellm.Fault{ErrorAfterEvents: 1, ErrorType: "permission_error", ErrorMessage: "not allowed"}},
				{Text: "Here I am."},
			}}, setup{})
			if r := h.turn("Hello"); r != ReasonError {
				t.Fatalf("reason %s", r)
			}
			errs := h.rec.events(wire.AgentError)
			if len(errs) != 1 {
				t.Fatalf("errors %+v", errs)
			}
			if e := errs[0].(wire.ErrorPayload); e.Kind != wire.ErrorKind(llm.KindPermission) || e.Retryable ||
				!strings.Contains(e.Message, "refused the request (permission_error): not allowed;") {
				t.Errorf("error %+v", e)
			}
			if n := len(h.srv.Requests()); n != 1 {
				t.Errorf("%d calls, want 1", n)
			}
		})
		t.Run(format+"/overloaded in the middle of the answer", func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Text: "one two three four five", Fault: &fakellm.Fault{ErrorAfterEvents: 5}},
				{Text: "Back."},
			}}, setup{})
			if r := h.turn("Count"); r != ReasonError {
				t.Fatalf("reason %s", r)
			}
			errs := h.rec.events(wire.AgentError)
			if len(errs) != 1 {
				t.Fatalf("errors %+v", errs)
			}
			if e := errs[0].(wire.ErrorPayload); e.Kind != wire.ErrorKind(llm.KindOverloaded) || !e.Retryable ||
				!strings.HasSuffix(e.Message, "The partial answer was kept.") {
				t.Errorf("error %+v", e)
			}
			ms := h.messages()
			if last := ms[len(ms)-1]; last.State != wire.MessageInterrupted || !strings.HasPrefix(last.Content[0].Text, "one two") {
				t.Errorf("partial answer %+v", last)
			}
			if n := len(h.srv.Requests()); n != 1 || len(h.rec.notices("retry")) != 0 {
				t.Errorf("a partial answer was retried: %d calls", n)
			}
		})
	}
}
