package agent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/memory"
	"pilot/backend/wire"
)

// resultHas matches a request whose tool results include the call id.
func resultHas(id string) func(fakellm.Request) bool {
	return func(r fakellm.Request) bool {
		return slices.ContainsFunc(r.ToolResults, func(t fakellm.ToolResult) bool { return t.ToolUseID == id })
	}
}

// A nested AGENTS.md reaches the model with the first call that reads or
// lists below its folder, once (two calls at once: one of them), outermost
// first, never in the system prompt; a resumed session does not bring it
// in again; the card names it. A failed read brings nothing.
func TestNestedInstructionsOncePerSession(t *testing.T) {
	t.Parallel()
	const sub, deep = "SUB-RULES-7c1", "DEEP-RULES-2b9"
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{Match: func(r fakellm.Request) bool {
			return strings.Contains(r.LastUserText, "first") && len(r.ToolResults) == 0
		},
			ToolCalls: []fakellm.ToolCall{toolCall("r0", "read_file", `{"path":"sub/none.go"}`)}},
		{Match: resultHas("r0"), ToolCalls: []fakellm.ToolCall{toolCall("r1", "read_file", `{"path":"sub/a.go"}`), toolCall("r2", "list_files", `{"path":"sub"}`)}},
		{Match: resultHas("r1"), ToolCalls: []fakellm.ToolCall{toolCall("r3", "read_file", `{"path":"top.go"}`), toolCall("r4", "read_file", `{"path":"sub/deep/b.go"}`)}},
		{Match: resultHas("r3"), Text: "done"},
		{Match: func(r fakellm.Request) bool {
			return strings.Contains(r.LastUserText, "second") && len(r.ToolResults) == 0
		},
			ToolCalls: []fakellm.ToolCall{toolCall("r5", "read_file", `{"path":"sub/deep/b.go"}`)}},
		{Match: resultHas("r5"), Text: "done again"},
		{Match: func(r fakellm.Request) bool {
			return strings.Contains(r.LastUserText, "third") && len(r.ToolResults) == 0
		},
			ToolCalls: []fakellm.ToolCall{toolCall("r6", "read_file", `{"path":"sub/deep/b.go"}`)}},
		{Match: resultHas("r6"), Text: "done a third time"},
	}}, setup{mode: "ask", files: map[string]string{
		"AGENTS.md": "root rules", "top.go": "package top", "sub/a.go": "package a", "sub/AGENTS.md": sub,
		"sub/deep/b.go": "package b", "sub/deep/CLAUDE.md": deep,
	}})
	if r := h.turn("first"); r != ReasonEndTurn {
		t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
	}
	reqs := h.srv.Requests()
	if strings.Contains(reqs[0].System, sub) || !strings.Contains(reqs[0].System, "root rules") {
		t.Fatalf("the system prompt has the nested file, or lacks the root's")
	}
	if got := h.results(1); strings.Contains(got[0].Content, sub) {
		t.Errorf("a failed read brought the nested file in: %q", got[0].Content)
	}
	with := 0
	for _, res := range h.results(2) {
		if strings.Contains(res.Content, "<instructions from sub/AGENTS.md apply to files under sub/>") && strings.Contains(res.Content, sub) {
			with++
		}
	}
	if with != 1 {
		t.Errorf("%d of read_file and list_files of sub carry sub/AGENTS.md, want 1: %+v", with, h.results(2))
	}
	third := h.results(3)
	if strings.Contains(third[0].Content, "<instructions") || !strings.Contains(third[1].Content, deep) || strings.Contains(third[1].Content, sub) {
		t.Errorf("the third results: %+v", third)
	}
	cards := map[string][]string{}
	for _, p := range h.rec.events(wire.AgentTool) {
		c := p.(wire.ToolPayload).Call
		if c.Status == wire.ToolDone {
			cards[c.ID] = c.Instructions
		}
	}
	if !slices.Equal(cards["r4"], []string{"sub/deep/CLAUDE.md"}) || len(cards["r3"]) != 0 || len(cards["r1"])+len(cards["r2"]) != 1 {
		t.Errorf("the cards' instruction files: %v", cards)
	}

	h.restart()
	if r := h.turn("second"); r != ReasonEndTurn {
		t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
	}
	last := h.srv.Requests()
	if res := last[len(last)-1].ToolResults; len(res) != 1 || strings.Contains(res[0].Content, deep) {
		t.Errorf("the resumed session brought the nested file in again: %+v", res)
	}

	// The result that carried sub/deep/CLAUDE.md elided to save context:
	// the next read below it brings it in again.
	l, err := h.m.live(t.Context(), h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.elided = map[string]bool{"r4": true}
	l.mu.Unlock()
	l.nested.forget()
	if r := h.turn("third"); r != ReasonEndTurn {
		t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
	}
	last = h.srv.Requests()
	if res := last[len(last)-1].ToolResults; len(res) != 1 || !strings.HasPrefix(res[0].Content, "<instructions from sub/deep/CLAUDE.md") || !strings.Contains(res[0].Content, "package b") {
		t.Errorf("after its result was elided, the nested file was not brought in again (first): %+v", res)
	}
}

// The system prompt has every level's file in order (the user's, the
// project's, CLAUDE.local.md, the rules, each import after its importer),
// says they carry no authority, and names the files not read.
func TestSystemPromptLevels(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), t.TempDir()
	tree(t, map[string]string{
		home + "/.claude/CLAUDE.md": "USER-LEVEL", dir + "/AGENTS.md": "PROJECT-LEVEL @docs/x.md @/etc/passwd", dir + "/docs/x.md": "IMPORTED",
		dir + "/CLAUDE.local.md": "LOCAL-LEVEL", dir + "/.claude/rules/a.md": "RULE-LEVEL", dir + "/sub/AGENTS.md": "NESTED-LEVEL",
	})
	p, notRead := SystemPrompt(t.Context(), memory.Load(home, dir), dir, time.Now(), nil)
	at := -1
	for _, s := range []string{"they cannot grant a permission", "# ~/.claude/CLAUDE.md (the user's own instructions", "USER-LEVEL", "# AGENTS.md (the project's own instructions)", "PROJECT-LEVEL",
		"# docs/x.md (imported by AGENTS.md)", "IMPORTED", "# CLAUDE.local.md (the user's personal", "LOCAL-LEVEL", "# .claude/rules/a.md (a rule of the project)", "RULE-LEVEL"} {
		i := strings.Index(p, s)
		if i <= at {
			t.Errorf("%q is not after the one before it (at %d, the one before at %d)", s, i, at)
		}
		at = i
	}
	if strings.Contains(p, "NESTED-LEVEL") || strings.Contains(p, "root:x:") {
		t.Errorf("the system prompt has a nested file or /etc/passwd")
	}
	if len(notRead) != 1 || !strings.Contains(notRead[0].Error(), "AGENTS.md imports /etc/passwd, which is outside the project folder") {
		t.Errorf("not read: %v", notRead)
	}
}

// tree writes files (absolute path → text).
func tree(t *testing.T, files map[string]string) {
	t.Helper()
	for p, text := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The harness gives every test a home folder of its own: a user file
// written there reaches the system prompt, and the process's home (the
// developer's own ~/.claude, a canary here: see TestMain) does not.
func TestHarnessHome(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{{Text: "ok"}}}, setup{})
	if h.home == "" {
		t.Fatal("the harness gives the agent no home folder of the test's own")
	}
	tree(t, map[string]string{h.home + "/.claude/CLAUDE.md": "THIS TEST'S USER FILE"})
	if r := h.turn("hi"); r != ReasonEndTurn {
		t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
	}
	reqs := h.srv.ModelRequests()
	if len(reqs) == 0 || !strings.Contains(reqs[0].System, "THIS TEST'S USER FILE") || strings.Contains(reqs[0].System, homeCanary) {
		t.Errorf("the system prompt does not have the harness home's user file only: %d requests", len(reqs))
	}
}

// A nested file's import of a file the system prompt already has is not
// given to the model again (memory.Nested is given the turn's files).
func TestNestedImportOfThePrompt(t *testing.T) {
	t.Parallel()
	const root = "ROOT-RULES-5d2"
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{Match: func(r fakellm.Request) bool { return len(r.ToolResults) == 0 },
			ToolCalls: []fakellm.ToolCall{toolCall("r1", "read_file", `{"path":"sub/a.go"}`)}},
		{Match: resultHas("r1"), Text: "done"},
	}}, setup{mode: "ask", files: map[string]string{
		"AGENTS.md": root, "sub/a.go": "package a", "sub/AGENTS.md": "SUB-RULES @../AGENTS.md",
	}})
	if r := h.turn("read"); r != ReasonEndTurn {
		t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
	}
	got := h.results(1)
	if len(got) != 1 || !strings.Contains(got[0].Content, "SUB-RULES") || strings.Contains(got[0].Content, root) {
		t.Errorf("the nested file is not given alone: %+v", got)
	}
}

// A rule with paths: is not in the system prompt: it comes with the
// first read of a file matching its globs, once, and not with a file
// that does not match.
func TestPathRuleComesWithAMatchingFile(t *testing.T) {
	t.Parallel()
	const rule = "API-RULE-3f8"
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{Match: func(r fakellm.Request) bool { return len(r.ToolResults) == 0 },
			ToolCalls: []fakellm.ToolCall{toolCall("r1", "read_file", `{"path":"README.md"}`)}},
		{Match: resultHas("r1"), ToolCalls: []fakellm.ToolCall{toolCall("r2", "read_file", `{"path":"src/api/get.ts"}`)}},
		{Match: resultHas("r2"), ToolCalls: []fakellm.ToolCall{toolCall("r3", "patch_file", `{"path":"src/api/put.ts","old_string":"b","new_string":"c"}`)}},
		{Match: resultHas("r3"), Text: "done"},
	}}, setup{mode: "all", files: map[string]string{
		"AGENTS.md": "root rules", "README.md": "readme", "src/api/get.ts": "a", "src/api/put.ts": "b",
		".claude/rules/api.md": "---\npaths:\n  - \"src/api/**/*.ts\"\n---\n" + rule,
	}})
	if r := h.turn("go"); r != ReasonEndTurn {
		t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
	}
	reqs := h.srv.ModelRequests()
	if strings.Contains(reqs[0].System, rule) {
		t.Errorf("the path rule is in the system prompt")
	}
	for i, want := range []bool{false, true, false} {
		got := h.results(i + 1)
		if len(got) != 1 || strings.Contains(got[0].Content, rule) != want {
			t.Errorf("call %d: the rule given %v, want %v: %+v", i+1, !want, want, got)
		}
	}
	if got := h.results(2); !strings.Contains(got[0].Content, "<instructions from .claude/rules/api.md apply to files matching src/api/**/*.ts>") {
		t.Errorf("the frame does not name the rule's globs: %q", got[0].Content)
	}
}
