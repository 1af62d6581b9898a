package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// Headless with a scripted model: "/greet Ada" asks the model to use the
// user's skill greet (in ~/.claude/skills, outside the project); the model
// calls skill for its body and for a file beside it, with no approval even
// under --approve none; the system prompt names the skills without their
// bodies; a broken SKILL.md is reported once on stderr with a sentence.
func TestHeadlessSkill(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			{Name: "skill", Input: []byte(`{"name":"greet"}`)},
			{Name: "skill", Input: []byte(`{"name":"greet/phrases.md"}`)},
		}, When: &fakellm.When{LastUserContains: `Use the skill "greet"`}},
		{Text: "Hello, Ada.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	home := t.TempDir()
	user := filepath.Join(home, ".claude", "skills", "greet")
	dir := t.TempDir()
	for path, text := range map[string]string{
		filepath.Join(dir, ".claude/skills/pdf/SKILL.md"):    "---\nname: pdf\ndescription: Fill PDF forms.\n---\nPDF BODY\n",
		filepath.Join(dir, ".claude/skills/broken/SKILL.md"): "no front matter here\n",
		filepath.Join(user, "SKILL.md"):                      "---\nname: greet\ndescription: Greets people by name.\n---\nGREET BODY: read phrases.md and greet the person.\n",
		filepath.Join(user, "phrases.md"):                    "Say: Hello, NAME.\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := command(t, srv, home, "-p", "/greet Ada", "--project", dir, "--approve", "none")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pilot -p: %v\n%s", err, stderr.String())
	}
	if stdout.String() != "Hello, Ada.\n" {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	if want := "· " + filepath.Join(dir, ".claude", "skills", "broken", "SKILL.md") + " is not used as a skill: it has no front matter"; strings.Count(stderr.String(), want) != 1 {
		t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
	}
	var model []fakellm.Request
	for _, r := range srv.Requests() {
		if r.Format != "" && r.Turn >= 0 {
			model = append(model, r)
		}
	}
	if len(model) != 2 {
		t.Fatalf("%d model requests, want 2", len(model))
	}
	first := model[0]
	if !strings.Contains(first.System, "- greet: Greets people by name.") || !strings.Contains(first.System, "- pdf: Fill PDF forms.") ||
		strings.Contains(first.System, "GREET BODY") || strings.Contains(first.System, "PDF BODY") {
		t.Errorf("system prompt:\n%s", first.System)
	}
	if !slices.Contains(first.Tools, "skill") {
		t.Errorf("tools %v lack skill", first.Tools)
	}
	if !strings.Contains(first.LastUserText, "Ada") {
		t.Errorf("the message was %q", first.LastUserText)
	}
	res := model[1].ToolResults
	if len(res) != 2 || res[0].IsError || res[1].IsError ||
		!strings.Contains(res[0].Content, "GREET BODY") || !strings.Contains(res[0].Content, "- phrases.md (") ||
		res[1].Content != "Say: Hello, NAME.\n" {
		t.Errorf("tool results %+v", res)
	}
}
