package tools

import (
	"strings"
	"testing"
)

// TestRunBashSandboxParams: sandbox: false carries its reason to the
// proposal and the label, and is refused without one.
func TestRunBashSandboxParams(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	cases := []struct {
		name    string
		in      map[string]any
		isErr   bool
		outside bool
		reason  string
	}{
		{"default: in the sandbox", map[string]any{"command": "make"}, false, false, ""},
		{"sandbox: true", map[string]any{"command": "make", "sandbox": true, "reason": "ignored"}, false, false, ""},
		{"sandbox: false with a reason", map[string]any{"command": "make", "sandbox": false, "reason": " needs ~/.docker "}, false, true, "needs ~/.docker"},
		{"sandbox: false without a reason", map[string]any{"command": "make", "sandbox": false}, true, false, ""},
		{"sandbox: false with a blank reason", map[string]any{"command": "make", "sandbox": false, "reason": "  "}, true, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := f.call("run_bash", c.in)
			if res.IsError != c.isErr {
				t.Fatalf("isError %v: %s", res.IsError, res.Output)
			}
			if c.isErr {
				if res.Proposal != nil || !strings.Contains(res.Output, "needs a reason") {
					t.Fatalf("refusal %q with proposal %v", res.Output, res.Proposal)
				}
				return
			}
			cmd := res.Proposal.Command
			if cmd.Outside != c.outside || cmd.Reason != c.reason {
				t.Fatalf("command %+v, want outside %v reason %q", cmd, c.outside, c.reason)
			}
			if c.outside != strings.Contains(res.Output, "outside the sandbox") {
				t.Errorf("the summary %q does not say where it runs", res.Output)
			}
		})
	}
	if l := labelRunBash(RunBashParams{Command: "make", Sandbox: new(bool), Reason: "needs ~/.docker"}); !strings.Contains(l, "outside the sandbox") || !strings.Contains(l, "needs ~/.docker") {
		t.Errorf("label %q shows neither the sandbox nor the reason", l)
	}
}
