package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/wire"
)

// TestRefusalIsReported: an answer that ends with stop_reason "refusal"
// ends the turn visibly: an agent:error of kind refusal with the
// provider's explanation, the session in error, and the refusal kept in
// the session as the assistant's message (after what arrived of the
// answer), so the history stays a valid conversation the next turn can
// send. The empty refusal is Anthropic's documented shape
// (llm/testdata/anthropic_refusal.sse); its tool calls are not run.
func TestRefusalIsReported(t *testing.T) {
	t.Parallel()
	why := "This request was declined because it could enable cyber harm."
	tests := []struct {
		name   string
		format string
		turn   fakellm.Turn
		stored []string // the texts of the refused answer as stored
		msg    string   // part of the error sentence
	}{
		{"anthropic, nothing before the refusal", llm.ProviderAnthropic,
			fakellm.Turn{Fixture: "../llm/testdata/anthropic_refusal.sse"},
			[]string{llm.RefusalNote(why)}, "declined to answer this request: " + why},
		{"anthropic, text before the refusal", llm.ProviderAnthropic,
			fakellm.Turn{Text: "Hello..", StopReason: "refusal"},
			[]string{"Hello..", llm.RefusalNote("")}, "declined to answer this request. Asking again"},
		{"openai content_filter", llm.ProviderOpenAI,
			fakellm.Turn{StopReason: "refusal"},
			[]string{llm.RefusalNote("")}, "declined to answer this request."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.format, fakellm.Script{Turns: []fakellm.Turn{
				tt.turn,
				{Text: "Sure, here is something else.", When: &fakellm.When{LastUserContains: "something else"}},
			}}, setup{})
			if r := h.turn("Do the forbidden thing"); r != ReasonError {
				t.Fatalf("reason %s, want %s", r, ReasonError)
			}
			errs := h.rec.events(wire.AgentError)
			if len(errs) != 1 {
				t.Fatalf("errors %v", errs)
			}
			e := errs[0].(wire.ErrorPayload)
			if e.Kind != wire.ErrorKind(llm.KindRefusal) || !strings.Contains(e.Message, tt.msg) || e.Retryable {
				t.Errorf("error %+v, want kind refusal with %q", e, tt.msg)
			}
			sess, err := h.st.Sessions.Get(t.Context(), h.sess.ID)
			if err != nil || sess.State != wire.SessionError {
				t.Errorf("session state %q, %v", sess.State, err)
			}
			ms := h.messages()
			if len(ms) != 2 || ms[1].Role != llm.RoleAssistant {
				t.Fatalf("stored %+v", ms)
			}
			var texts []string
			for _, b := range ms[1].Content {
				texts = append(texts, b.Text)
			}
			if strings.Join(texts, "|") != strings.Join(tt.stored, "|") {
				t.Errorf("stored answer %q, want %q", texts, tt.stored)
			}
			// The session goes on; the next call carries the kept refusal.
			if r := h.turn("Then something else"); r != ReasonEndTurn {
				t.Fatalf("next turn: %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			reqs := h.srv.Requests()
			if body, _ := json.Marshal(reqs[len(reqs)-1].Body); !strings.Contains(string(body), "stop reason: refusal") {
				t.Errorf("the next call did not carry the refusal: %.400s", body)
			}
		})
	}
}
