package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// public are the skills of testdata/public (see testdata/README.md): real
// SKILL.md files from two public repositories.
const public = "testdata/public"

// Every public skill parses: the format Pilot reads is the one they use.
func TestPublicSkillsParse(t *testing.T) {
	t.Parallel()
	set := Load("", "", installFifty(t, 1))
	if len(set.Problems) != 0 {
		t.Errorf("problems with public skills: %+v", set.Problems)
	}
	if len(set.Skills) < 25 {
		t.Errorf("%d public skills, want 25", len(set.Skills))
	}
}

// installFifty installs the public skills copies times into a project's
// .claude/skills (the second copy under the name NAME-2, ...) and returns
// the project.
func installFifty(tb testing.TB, copies int) string {
	tb.Helper()
	project := tb.TempDir()
	entries, err := os.ReadDir(public)
	if err != nil {
		tb.Fatal(err)
	}
	for c := 1; c <= copies; c++ {
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			b, err := os.ReadFile(filepath.Join(public, e.Name(), "SKILL.md"))
			if err != nil {
				tb.Fatal(err)
			}
			name := e.Name()
			if c > 1 {
				name += "-" + string(rune('0'+c))
				b = []byte(strings.Replace(string(b), "name: "+e.Name(), "name: "+name, 1))
			}
			dir := filepath.Join(project, ".claude", "skills", name)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), b, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return project
}

// inlined is the system prompt's part if every skill's SKILL.md were put
// in it whole (what Pilot does not do): the measure Prompt is compared with.
func inlined(list []Skill) string {
	var b strings.Builder
	b.WriteString("# Skills\n")
	for _, k := range list {
		b.WriteString("\n## " + k.Name + ": " + k.Description + "\n\n" + k.Body + "\n")
	}
	return b.String()
}

// BenchmarkSkillsPrompt finds 50 installed skills (the 25 public ones,
// each under two names), as every turn does, and builds the prompt's part;
// it reports that part's size against the same skills inlined, in bytes
// and in tokens as the agent estimates them (4 characters a token).
func BenchmarkSkillsPrompt(b *testing.B) {
	project := installFifty(b, 2)
	var set Set
	var prompt string
	for b.Loop() {
		set = Load("", "", project)
		prompt = Prompt(set.Skills)
	}
	if len(set.Skills) != 50 || len(set.Problems) != 0 {
		b.Fatalf("%d skills, problems %+v", len(set.Skills), set.Problems)
	}
	in := inlined(set.Skills)
	b.ReportMetric(float64(len(set.Skills)), "skills")
	b.ReportMetric(float64(len(prompt)), "prompt-bytes")
	b.ReportMetric(float64(len(in)), "inlined-bytes")
	b.ReportMetric(float64(len(prompt)/4), "prompt-tokens")
	b.ReportMetric(float64(len(in)/4), "inlined-tokens")
	b.ReportMetric(100*(1-float64(len(prompt))/float64(len(in))), "saved-%")
}
