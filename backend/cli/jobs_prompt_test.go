package cli

import (
	"strings"
	"testing"

	"pilot/backend/wire"
)

// TestQuestionNamesABackgroundJob: the terminal's question about a
// command that starts a background job says it runs on.
func TestQuestionNamesABackgroundJob(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a    wire.Approval
		want string
	}{
		{wire.Approval{Kind: wire.ApprovalCommand, Command: "npm run dev", Background: true}, "Start `npm run dev` as a background job (it runs on until stopped, at the latest when this run ends)? [y]es / [n]o "},
		{wire.Approval{Kind: wire.ApprovalCommand, Command: "npm run dev", Background: true, NoSandbox: "no bwrap"}, "Start `npm run dev` as a background job (it runs on until stopped, at the latest when this run ends) (not sandboxed: no bwrap)?"},
		{wire.Approval{Kind: wire.ApprovalOutsideSandbox, Command: "npm run dev", Background: true, Reason: "needs the GPU"}, "Start `npm run dev` as a background job OUTSIDE the sandbox"},
		{wire.Approval{Kind: wire.ApprovalCommand, Command: "make"}, "Run `make`? [y]es / [n]o "},
	}
	for _, c := range cases {
		if got := question(c.a, false); !strings.HasPrefix(got, c.want) {
			t.Errorf("question(%+v) = %q, want %q...", c.a, got, c.want)
		}
	}
}
