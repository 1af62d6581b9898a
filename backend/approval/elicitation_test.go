package approval

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"pilot/backend/wire"
)

// An elicitation is answered only with DecideElicitation; content its
// check refuses leaves it pending with the check's sentence, and each
// answer ends it with its outcome.
func TestDecideElicitation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		answers []wire.ElicitationDecision
		want    wire.ApprovalOutcome
	}{
		{"accept", []wire.ElicitationDecision{{Action: wire.ElicitAccept, Content: json.RawMessage(`{"ok":true}`)}}, wire.OutcomeApproved},
		{"refused content, then accept", []wire.ElicitationDecision{{Action: wire.ElicitAccept, Content: json.RawMessage(`{}`)}, {Action: wire.ElicitAccept, Content: json.RawMessage(`{"ok":true}`)}}, wire.OutcomeApproved},
		{"decline", []wire.ElicitationDecision{{Action: wire.ElicitDecline}}, wire.OutcomeRejected},
		{"cancel", []wire.ElicitationDecision{{Action: wire.ElicitCancel}}, wire.OutcomeCancelled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := newRecord()
			b := New(rec)
			check := func(content json.RawMessage) error {
				if string(content) != `{"ok":true}` {
					return errors.New("«OK» is required.")
				}
				return nil
			}
			got := make(chan result, 1)
			go func() {
				var r result
				r.ans, r.err = b.AskElicitation(context.Background(), 1, wire.Approval{Elicitation: &wire.Elicitation{Server: "s"}}, check)
				got <- r
			}()
			a := <-rec.ready
			if a.Kind != wire.ApprovalElicitation {
				t.Fatalf("kind %q", a.Kind)
			}
			if err := b.DecideCommand(a.ID, wire.CommandDecision{Approve: true}); !errors.Is(err, ErrWrongKind) {
				t.Fatalf("a yes/no answer to a form: %v", err)
			}
			for i, d := range c.answers {
				err := b.DecideElicitation(a.ID, d)
				if last := i == len(c.answers)-1; last != (err == nil) {
					t.Fatalf("answer %d: %v", i, err)
				} else if !last && (!errors.Is(err, ErrBadDecision) || len(b.Pending(1)) != 1) {
					t.Fatalf("refused content: %v, pending %v", err, b.Pending(1))
				}
			}
			r := <-got
			if r.err != nil || r.ans.Outcome != c.want || r.ans.Elicitation.Action != c.answers[len(c.answers)-1].Action {
				t.Fatalf("answer %+v %v", r.ans, r.err)
			}
		})
	}
}
