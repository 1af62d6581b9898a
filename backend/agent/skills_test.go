package agent

import (
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/skills"
)

// The system prompt names the installed skills with their descriptions,
// never their bodies, and says nothing of skills when there are none.
func TestSystemPromptListsSkills(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p, _ := SystemPrompt(t.Context(), nil, dir, time.Now(), []skills.Skill{{Name: "pdf", Description: "Fill PDF forms.", Body: "THE BODY"}})
	if !strings.Contains(p, "# Skills") || !strings.Contains(p, "- pdf: Fill PDF forms.") || strings.Contains(p, "THE BODY") {
		t.Errorf("system prompt with a skill:\n%s", p)
	}
	if p, _ := SystemPrompt(t.Context(), nil, dir, time.Now(), nil); strings.Contains(p, "# Skills") {
		t.Error("the system prompt mentions skills when none is installed")
	}
}

// A project rule on skill judges skill names: "deny skill pdf*" refuses
// the pdf skill (and its files) and leaves the others alone; the calls
// need no approval otherwise, in the default mode.
func TestSkillCallsJudgedByRulesOnNames(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		".claude/skills/pdf/SKILL.md":   "---\nname: pdf\ndescription: Fill PDF forms.\n---\nPDF BODY\n",
		".claude/skills/pdf/forms.md":   "FORMS\n",
		".claude/skills/notes/SKILL.md": "---\nname: notes\ndescription: Take notes.\n---\nNOTES BODY\n",
	}
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			toolCall("a", "skill", `{"name": "pdf"}`),
			toolCall("b", "skill", `{"name": "pdf/forms.md"}`),
			toolCall("c", "skill", `{"name": "notes"}`),
		}},
		{Text: "Done."},
	}}, setup{mode: "ask", files: files})
	addRule(t, h, "deny", "skill", "pdf*")
	if r := h.turn("use the skills"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	res := resultsByID(h)
	for _, id := range []string{"a", "b"} {
		if r := res[id]; !r.IsError || strings.Contains(r.Content, "PDF BODY") || strings.Contains(r.Content, "FORMS") {
			t.Errorf("call %s under deny skill pdf*: %+v", id, r)
		}
	}
	if r := res["c"]; r.IsError || !strings.Contains(r.Content, "NOTES BODY") {
		t.Errorf("notes: %+v", r)
	}
	if reqs := h.srv.Requests(); !strings.Contains(reqs[0].System, "- pdf: Fill PDF forms.") {
		t.Errorf("system prompt lacks the project's skills:\n%s", reqs[0].System)
	}
}

// A SKILL.md that cannot be used is told once in a notice, at the first
// turn, not again at every turn while it stays the same.
func TestBrokenSkillNoticeOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{{Text: "Done.", Repeat: true}}},
		setup{files: map[string]string{".claude/skills/broken/SKILL.md": "no front matter\n"}})
	for range 2 {
		if r := h.turn("hello"); r != ReasonEndTurn {
			t.Fatalf("reason %s", r)
		}
	}
	ns := h.rec.notices("skills")
	if len(ns) != 1 || !strings.Contains(ns[0], "broken/SKILL.md is not used as a skill: it has no front matter") {
		t.Errorf("notices %q, want one about broken/SKILL.md", ns)
	}
}
