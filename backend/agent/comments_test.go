package agent

import (
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// Issue 40: a comment on a line of a rejected hunk tells the model why the
// hunk was rejected, in the call's result, as the feedback field does; a
// comment on an approved hunk or on another file does not.
func TestRejectedHunkCommentIsTheReason(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("mp", "multi_patch", `{"edits":[
			{"path":"f.txt","old_text":"line 5\n","new_text":"five\n"},
			{"path":"f.txt","old_text":"line 20\n","new_text":"twenty\n"}]}`)}},
		{Text: "Understood."},
	}}, setup{files: map[string]string{"f.txt": numbered(40)}})
	on := func(path string, line int, text, said string) wire.Comment {
		return wire.Comment{Path: path, Line: line, LineText: text, Text: said, Origin: wire.CommentOnChange}
	}
	h.approveWith(func(a wire.Approval) {
		h.m.Approvals().DecideChange(a.ID, wire.ChangeDecision{
			Files: []wire.FileDecision{{Path: "f.txt", Hunks: []bool{true, false}}},
			Comments: []wire.Comment{
				on("f.txt", 5, "five", "nice"),
				on("f.txt", 20, "twenty", "keep the digits: the parser reads them"),
				on("g.txt", 20, "twenty", "another file"),
			},
		})
	})
	if r := h.turn("Spell out two lines"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	res := h.results(1)
	want := "f.txt: applied hunk 1 of 2; rejected hunk 2 (lines 17-23)\n" +
		"The user's comment on f.txt:20 (“twenty”), rejected hunk 2: keep the digits: the parser reads them\n" +
		"Rejected hunks were not written"
	if len(res) != 1 || !strings.HasPrefix(res[0].Content, want) {
		t.Fatalf("tool result:\n%s\nwant it to start:\n%s", res[0].Content, want)
	}
	for _, not := range []string{"nice", "another file"} {
		if strings.Contains(res[0].Content, not) {
			t.Errorf("the result carries a comment on a hunk that was not rejected (%q):\n%s", not, res[0].Content)
		}
	}
}
