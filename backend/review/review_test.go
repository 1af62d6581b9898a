package review

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pilot/backend/diff"
	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/wire"
)

// planted is a project whose change brings in a bug: the loop of Sum
// stops one short (line 5 of calc.go now).
const (
	calcBefore = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) (s int) {\n\tfor i := 0; i < len(xs); i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n"
	calcAfter  = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) (s int) {\n\tfor i := 0; i < len(xs)-1; i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n"
)

// target writes the changed file into a folder and returns the review's
// target: calc.go with its hunks, as the Branch view shows them.
func target(t *testing.T) Target {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "calc.go"), []byte(calcAfter), 0o644); err != nil {
		t.Fatal(err)
	}
	return Target{Dir: dir, What: "the uncommitted changes", Files: []wire.FileChange{{Path: "calc.go", Hunks: diff.Compute(calcBefore, calcAfter).Hunks()}}}
}

// model serves script through a real provider client.
func model(t *testing.T, script fakellm.Script) (Model, *fakellm.Server) {
	t.Helper()
	srv := fakellm.New(script)
	t.Cleanup(srv.Close)
	p, err := llm.New(llm.Config{Provider: llm.ProviderAnthropic, BaseURL: srv.URL(), APIKey: "sk-test", Model: "claude-test"})
	if err != nil {
		t.Fatal(err)
	}
	return Model{Provider: p, Name: "claude-test", MaxTokens: 1000}, srv
}

func call(name, input string) fakellm.ToolCall {
	return fakellm.ToolCall{Name: name, Input: json.RawMessage(input)}
}

// TestReviewFindsThePlantedBug: a scripted model reads the changed file,
// then reports the bug on line 5 and one more finding on a line outside
// the changes and one on a file not changed; the bug lands on calc.go:5,
// the second is moved to the changed line with a note, the third is
// dropped with a note, and the model is told each time.
func TestReviewFindsThePlantedBug(t *testing.T) {
	t.Parallel()
	m, srv := model(t, fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{call("read_file", `{"path":"calc.go"}`)}},
		{ToolCalls: []fakellm.ToolCall{
			call("report_finding", `{"path":"calc.go","line":5,"text":"The loop stops before the last element: len(xs)-1 drops it from the sum."}`),
			call("report_finding", `{"path":"./calc.go","line":9,"text":"Sum of an empty slice is not tested."}`),
			call("report_finding", `{"path":"other.go","line":1,"text":"Not in the diff."}`),
		}},
		{Text: "Reviewed calc.go: one bug."},
	}})
	res, err := Run(context.Background(), m, target(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []wire.ReviewFinding{
		{Path: "calc.go", Line: 5, LineText: "\tfor i := 0; i < len(xs)-1; i++ {", Text: "The loop stops before the last element: len(xs)-1 drops it from the sum."},
		{Path: "calc.go", Line: 5, LineText: "\tfor i := 0; i < len(xs)-1; i++ {", Text: "Sum of an empty slice is not tested."},
	}
	if !slices.Equal(res.Findings, want) {
		t.Errorf("findings %+v, want %+v", res.Findings, want)
	}
	if len(res.Notes) != 2 || !strings.Contains(res.Notes[0], "moved to line 5") || !strings.Contains(res.Notes[1], "other.go is not among the reviewed changes") {
		t.Errorf("notes %q", res.Notes)
	}
	if res.Summary != "Reviewed calc.go: one bug." || len(res.Refused) != 0 {
		t.Errorf("summary %q, refused %q", res.Summary, res.Refused)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model calls, want 3", len(reqs))
	}
	if !strings.Contains(reqs[0].LastUserText, "+    5 | \tfor i := 0; i < len(xs)-1; i++ {") {
		t.Errorf("the diff given to the reviewer does not number the changed line:\n%s", reqs[0].LastUserText)
	}
	if got := reqs[1].ToolResults; len(got) != 1 || !strings.Contains(got[0].Content, "len(xs)-1") || got[0].IsError {
		t.Errorf("read_file's result: %+v", got)
	}
	if got := reqs[2].ToolResults; len(got) != 3 || got[0].IsError || !got[2].IsError || !strings.Contains(got[1].Content, "moved to line 5") {
		t.Errorf("report_finding's results: %+v", got)
	}
}

// TestReviewerCannotChangeAnything: the reviewer is offered only the
// read tools and report_finding; a write, a patch, a command, a helper
// and a web fetch it asks for anyway are refused, not run: the file is
// as it was, and the model is told.
func TestReviewerCannotChangeAnything(t *testing.T) {
	t.Parallel()
	m, srv := model(t, fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			call("write_file", `{"path":"calc.go","content":"package calc\n"}`),
			call("patch_file", `{"path":"calc.go","old_text":"len(xs)-1","new_text":"len(xs)"}`),
			call("run_bash", `{"command":"touch ran"}`),
			call("task", `{"description":"fix","prompt":"fix it"}`),
			call("web_fetch", `{"url":"https://example.com"}`),
		}},
		{Text: "Done."},
	}})
	tg := target(t)
	res, err := Run(context.Background(), m, tg)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(tg.Dir, "calc.go")); string(b) != calcAfter {
		t.Errorf("calc.go changed:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(tg.Dir, "ran")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the command ran: %v", err)
	}
	if len(res.Refused) != 5 {
		t.Errorf("refused %q, want all five calls", res.Refused)
	}
	reqs := srv.Requests()
	if got := reqs[0].Tools; !slices.Equal(got, []string{"list_files", "read_file", "glob", "grep", "report_finding"}) {
		t.Errorf("tools offered: %q", got)
	}
	for _, r := range reqs[1].ToolResults {
		if !r.IsError || !strings.HasPrefix(r.Content, "Not run: ") {
			t.Errorf("result %+v, want a refusal", r)
		}
	}
	if got := reqs[1].ToolResults[0].Content; !strings.Contains(got, "only reads") {
		t.Errorf("write_file's refusal: %q", got)
	}
}

// TestNothingToReview: no changed files is a sentence, and no model call.
func TestNothingToReview(t *testing.T) {
	t.Parallel()
	m, srv := model(t, fakellm.Script{})
	_, err := Run(context.Background(), m, Target{Dir: t.TempDir(), What: "the uncommitted changes"})
	if !errors.Is(err, ErrNothing) || len(srv.Requests()) != 0 {
		t.Errorf("err %v, %d requests", err, len(srv.Requests()))
	}
}
