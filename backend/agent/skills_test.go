package agent

import (
	"strings"
	"testing"
	"time"

	"pilot/backend/skills"
)

// The system prompt names the installed skills with their descriptions,
// never their bodies, and says nothing of skills when there are none.
func TestSystemPromptListsSkills(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := SystemPrompt(t.Context(), dir, time.Now(), []skills.Skill{{Name: "pdf", Description: "Fill PDF forms.", Body: "THE BODY"}})
	if !strings.Contains(p, "# Skills") || !strings.Contains(p, "- pdf: Fill PDF forms.") || strings.Contains(p, "THE BODY") {
		t.Errorf("system prompt with a skill:\n%s", p)
	}
	if p := SystemPrompt(t.Context(), dir, time.Now(), nil); strings.Contains(p, "# Skills") {
		t.Error("the system prompt mentions skills when none is installed")
	}
}
