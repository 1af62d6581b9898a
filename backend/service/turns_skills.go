package service

import (
	"context"
	"fmt"

	"pilot/backend/commands"
	"pilot/backend/skills"
	"pilot/backend/wire"
)

// Skills finds the skills a session in the folder dir sees (its own,
// PILOT_HOME's and the user's Claude Code ones), with the SKILL.md files
// that cannot be used and why.
func (t *Turns) Skills(dir string) skills.Set {
	return skills.Load(t.userHome(), t.home, dir)
}

// skillCommands are the / picker's entries of the skills a session in dir
// sees: a skill whose name a custom command has is left to the command
// ("/name" runs the command).
func (t *Turns) skillCommands(dir string, cmds []commands.Command) []wire.SlashCommand {
	taken := map[string]bool{}
	for _, c := range cmds {
		taken[c.Name] = true
	}
	var out []wire.SlashCommand
	for _, k := range t.Skills(dir).Skills {
		if !taken[k.Name] {
			out = append(out, wire.SlashCommand{Name: k.Name, Description: k.Description, Source: wire.SlashSkill})
		}
	}
	return out
}

// skillRoot is the folder whose project skills a session sees, as its
// agent does: its worktree for a worktree session, else dir (the project).
func (t *Turns) skillRoot(ctx context.Context, sessionID int64, dir string) string {
	if s, err := t.store.Sessions.Get(ctx, sessionID); err == nil {
		return s.Root(dir)
	}
	return dir
}

// expandSkill turns "/name args" naming a skill into the message that asks
// the model to use it; ok is false when no skill has the name.
func (t *Turns) expandSkill(dir, text string) (string, bool) {
	name, args, ok := commands.Split(text)
	if !ok {
		return "", false
	}
	if _, ok := t.Skills(dir).Find(name); !ok {
		return "", false
	}
	return skillRequest(name, args), true
}

// skillRequest is the message "/name args" sends for the skill name: it
// tells the model to load the skill with the skill tool and follow it,
// with the user's words after the name as the task.
func skillRequest(name, args string) string {
	msg := fmt.Sprintf("Use the skill %q: call the skill tool with name %q now and follow its instructions.", name, name)
	if args == "" {
		return msg
	}
	return msg + " The task:\n\n" + args
}
