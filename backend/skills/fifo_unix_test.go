//go:build unix

package skills

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// A project's skills are read through the project's root: a skill folder
// or a SKILL.md that is a link out of the project, or a FIFO, is a
// refused Problem saying so, never read; a skill's files are read through
// the project's root too (a FIFO refused without waiting), and a user's
// linked skill folder is followed.
func TestProjectSkillsThroughRoot(t *testing.T) {
	t.Parallel()
	home, project, outside := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "evil", "SKILL.md"), skillMD("evil", "SECRET-DESCRIPTION"))
	write(t, filepath.Join(outside, "mine", "SKILL.md"), skillMD("mine", "the user's own"))
	skills := filepath.Join(project, ".claude", "skills")
	write(t, filepath.Join(skills, "good", "SKILL.md"), skillMD("good", "fine"))
	write(t, filepath.Join(skills, "good", "ref.md"), "reference")
	write(t, filepath.Join(skills, "linked", "x"), "")
	if err := os.Remove(filepath.Join(skills, "linked", "x")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "evil", "SKILL.md"), filepath.Join(skills, "linked", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "evil"), filepath.Join(skills, "evil")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(skills, "good", "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".claude", "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "mine"), filepath.Join(home, ".claude", "skills", "mine")); err != nil {
		t.Fatal(err)
	}
	set := Load(home, "", project)
	var names []string
	for _, k := range set.Skills {
		names = append(names, k.Name)
	}
	if !slices.Equal(names, []string{"good", "mine"}) {
		t.Errorf("skills %v, want good and mine", names)
	}
	refused := map[string]string{}
	for _, p := range set.Problems {
		if p.Refused {
			refused[filepath.Base(filepath.Dir(p.Path))+"/"+filepath.Base(p.Path)] = p.Reason
		}
	}
	if r := refused["linked/SKILL.md"]; !strings.Contains(r, "outside the project folder") {
		t.Errorf("the linked SKILL.md: %q (problems %+v)", r, set.Problems)
	}
	if r := refused["skills/evil"]; !strings.Contains(r, "outside the project folder") {
		t.Errorf("the linked skill folder: %q (problems %+v)", r, set.Problems)
	}
	good, _ := set.Find("good")
	if text, _, err := good.ReadFile("ref.md"); err != nil || text != "reference" {
		t.Errorf("ref.md: %q, %v", text, err)
	}
	if _, _, err := good.ReadFile("pipe.md"); err == nil || !strings.Contains(err.Error(), "regular") {
		t.Errorf("a FIFO of a skill: %v", err)
	}
}
