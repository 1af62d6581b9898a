package tools

import (
	"context"
	"fmt"
	"strings"

	"pilot/backend/skills"
	"pilot/backend/toolname"
)

// SkillTool loads a skill's instructions or one of its files.
const SkillTool = toolname.Skill

// SkillParams is the input of skill.
type SkillParams struct {
	Name string `json:"name" desc:"The skill's name as listed under Skills in the system prompt, or NAME/FILE for a file of its folder."`
}

// skills is the session's skills now; none when Deps.Skills is nil.
func (d Deps) skills() skills.Set {
	if d.Skills == nil {
		return skills.Set{}
	}
	return d.Skills()
}

func labelSkill(p SkillParams) string {
	if name, file, ok := strings.Cut(p.Name, "/"); ok {
		return "→ Reading " + truncate(file, 80) + " of the skill " + truncate(name, 64)
	}
	return "→ Using the skill " + truncate(p.Name, 64)
}

// skillCall runs the skill tool on the session's skills now.
func skillCall(_ context.Context, d Deps, p SkillParams) (Result, error) {
	return runSkill(d.skills(), p.Name), nil
}

func runSkill(set skills.Set, arg string) Result {
	name, file, hasFile := strings.Cut(strings.TrimSpace(arg), "/")
	k, ok := set.Find(name)
	if !ok {
		if len(set.Skills) == 0 {
			return errorf("There is no skill called %q: no skills are installed. Go on without one.", name)
		}
		names := make([]string, len(set.Skills))
		for i, s := range set.Skills {
			names[i] = s.Name
		}
		return errorf("There is no skill called %q. The skills are: %s.", name, strings.Join(names, ", "))
	}
	if hasFile {
		return skillFile(k, file)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The skill %q (%s):\n\n%s\n", k.Name, k.Path, k.Body)
	if len(k.AllowedTools) > 0 {
		fmt.Fprintf(&b, "\nThe skill lists allowed-tools (%s); in Pilot they grant nothing: every call is approved or refused as usual.\n", strings.Join(k.AllowedTools, ", "))
	}
	files, more, err := k.Files()
	switch {
	case err != nil:
		fmt.Fprintf(&b, "\nThe files of the skill's folder could not be listed (%v).\n", err)
	case len(files) > 0:
		fmt.Fprintf(&b, "\nThe skill's folder holds these files; read one by calling skill with name \"%s/FILE\":\n", k.Name)
		for _, f := range files {
			fmt.Fprintf(&b, "- %s (%s)\n", f.Path, plural(int(f.Size), "byte"))
		}
		if more {
			b.WriteString("- ... and more, not listed.\n")
		}
	}
	return Result{Output: strings.TrimRight(b.String(), "\n")}
}

func skillFile(k skills.Skill, file string) Result {
	text, cut, err := k.ReadFile(file)
	if err != nil {
		return errorf("The file %q of the skill %q could not be read: %v. Call skill with name %q to see the files of its folder.", file, k.Name, err, k.Name)
	}
	if cut {
		text += fmt.Sprintf("\n[... cut: the file is longer than %d KiB; only its beginning is shown]", skills.MaxFileRead>>10)
	}
	return Result{Output: text}
}
