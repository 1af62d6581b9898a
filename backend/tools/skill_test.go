package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pilot/backend/projectroot"
	"pilot/backend/skills"
)

// skillRegistry is a registry over a project whose user home holds one
// skill with a file beside it, loaded as the agent loads them.
func skillRegistry(t *testing.T) *Registry {
	t.Helper()
	home, project := t.TempDir(), t.TempDir()
	dir := filepath.Join(home, ".claude", "skills", "pdf")
	writeTestFile(t, filepath.Join(dir, "SKILL.md"), "---\nname: pdf\ndescription: Fill PDF forms.\nallowed-tools: Bash(python:*), Read\n---\n# PDF\n\nRead forms.md first.\n")
	writeTestFile(t, filepath.Join(dir, "forms.md"), "# Forms\nUse fill.py.\n")
	writeTestFile(t, filepath.Join(home, "secret.txt"), "the user's secret")
	root, err := projectroot.New(project)
	if err != nil {
		t.Fatal(err)
	}
	return New(Deps{Root: root, Env: []string{}, Skills: func() skills.Set { return skills.Load(home, "", project) }})
}

func TestSkillTool(t *testing.T) {
	t.Parallel()
	reg := skillRegistry(t)
	for _, tc := range []struct {
		name  string
		isErr bool
		want  []string
	}{
		{"pdf", false, []string{`The skill "pdf"`, "Read forms.md first.", "- forms.md (", `"pdf/FILE"`, "allowed-tools (Bash(python:*), Read); in Pilot they grant nothing"}},
		{"pdf/forms.md", false, []string{"# Forms\nUse fill.py."}},
		{"pdf/../secret.txt", true, []string{"could not be read", "leaves the skill's folder"}},
		{"pdf/missing.md", true, []string{"could not be read", `Call skill with name "pdf"`}},
		{"docx", true, []string{`There is no skill called "docx". The skills are: pdf.`}},
	} {
		res, err := reg.Execute(context.Background(), SkillTool, json.RawMessage(`{"name":`+jsonString(tc.name)+`}`))
		if err != nil {
			t.Fatal(err)
		}
		expect(t, res, tc.isErr, tc.want...)
		if strings.Contains(res.Output, "the user's secret") {
			t.Errorf("skill %s showed a file outside the skill's folder", tc.name)
		}
	}
	if got := reg.Label(SkillTool, json.RawMessage(`{"name":"pdf/forms.md"}`)); got != "→ Reading forms.md of the skill pdf" {
		t.Errorf("Label = %q", got)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// skill is offered only while a skill is installed: it costs the prompt
// nothing otherwise.
func TestSkillToolOfferedOnlyWithSkills(t *testing.T) {
	t.Parallel()
	root, err := projectroot.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range New(Deps{Root: root, Env: []string{}}).Defs() {
		names = append(names, d.Name)
	}
	if slices.Contains(names, SkillTool) {
		t.Errorf("with no skills the tools are %v, want no skill", names)
	}
	if !slices.Contains(Names(), SkillTool) {
		t.Errorf("Names() = %v lacks skill (rules name it)", Names())
	}
	var withSkills []string
	for _, d := range skillRegistry(t).Defs() {
		withSkills = append(withSkills, d.Name)
	}
	if !slices.Contains(withSkills, SkillTool) {
		t.Errorf("with a skill the tools are %v, want skill", withSkills)
	}
}
