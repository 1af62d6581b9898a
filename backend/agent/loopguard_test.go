package agent

import (
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// TestLoopGuardComparesWhatWasSent: five different malformed calls in one
// answer are five calls, not one repeated: each gets its own result (the
// reason its input could not be used) and the turn goes on.
func TestLoopGuardComparesWhatWasSent(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{
					{ID: "b1", Name: "read_file", RawInput: `{"path": `},
					{ID: "b2", Name: "read_file", RawInput: `{"path": "a`},
					{ID: "b3", Name: "read_file", RawInput: `["f.txt"]`},
					{ID: "b4", Name: "read_file", RawInput: `"f.txt"`},
					{ID: "b5", Name: "read_file", RawInput: `{"path": "f.txt"`},
				}},
				{Text: "I will send complete input.", When: &fakellm.When{HasToolResult: true}},
			}}, setup{files: map[string]string{"f.txt": "x\n"}})
			if r := h.turn("Read"); r != ReasonEndTurn {
				t.Fatalf("reason %s, notices %q", r, h.rec.notices("loop_guard"))
			}
			res := h.results(1)
			if len(res) != 5 {
				t.Fatalf("%d results, want 5: %+v", len(res), res)
			}
			for i, r := range res {
				if want := "b" + string(rune('1'+i)); r.ToolUseID != want || !strings.Contains(r.Content, "could not be used") {
					t.Errorf("result %d: %+v, want %s's own sentence", i, r, want)
				}
			}
			if n := h.rec.notices("loop_guard"); len(n) != 0 {
				t.Errorf("loop guard notices %q", n)
			}
			checkPairs(t, h.messages())
		})
	}
}

// TestLoopGuardNamesTheRepeatedCall: the notice and the stopped call's
// result name the call that repeated and how many times, not the answer's
// last call; every call after it gets a result saying it did not run.
func TestLoopGuardNamesTheRepeatedCall(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			toolCall("r1", "read_file", `{"path":"f.txt"}`),
			toolCall("r2", "read_file", `{"path": "f.txt"}`),
			toolCall("r3", "read_file", `{"path":"f.txt"}`),
			toolCall("l1", "list_files", `{}`),
			toolCall("g1", "glob", `{"pattern":"*.txt"}`),
		}},
	}}, setup{files: map[string]string{"f.txt": "x\n"}})
	if r := h.turn("Read"); r != ReasonLoopGuard {
		t.Fatalf("reason %s", r)
	}
	n := h.rec.notices("loop_guard")
	if len(n) != 1 || !strings.Contains(n[0], "read_file") || !strings.Contains(n[0], "3 times") ||
		!strings.Contains(n[0], `f.txt`) || strings.Contains(n[0], "list_files") || strings.Contains(n[0], "glob") {
		t.Errorf("notice %q, want one naming read_file with its input, 3 times", n)
	}
	ms := h.messages()
	checkPairs(t, ms)
	res := ms[len(ms)-1].Content
	if len(res) != 5 {
		t.Fatalf("%d results, want 5", len(res))
	}
	if !strings.Contains(res[0].Content, "x") || res[0].IsError {
		t.Errorf("first read: %+v", res[0])
	}
	if !res[2].IsError || !strings.Contains(res[2].Content, "read_file call 3 times in a row") {
		t.Errorf("the third read: %+v", res[2])
	}
	for _, r := range res[3:] {
		if !r.IsError || !strings.Contains(r.Content, "read_file") || !strings.Contains(r.Content, "loop guard") {
			t.Errorf("a call after the stop: %+v, want a result naming the repeated call", r)
		}
	}
}

// TestLoopGuardShowsInputAsText: the input a sentence quotes shows what a
// terminal would act on or hide, and is cut.
func TestLoopGuardShowsInputAsText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`{"path":"a.go"}`, `{"path":"a.go"}`},
		{"REAL\r\x1b[2K ok", `REAL\u{D}\u{1B}[2K ok`},
		{"a\u202eb\u200bc\u2028d", `a\u{202E}b\u{200B}c\u{2028}d`},
		{"\xff", `\u{FFFD}`},
		{strings.Repeat("é", 130), strings.Repeat("é", 120) + "… (20 more bytes)"},
	} {
		if got := shownInput(c.in); got != c.want {
			t.Errorf("shownInput(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
