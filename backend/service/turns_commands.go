package service

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"pilot/backend/commands"
	"pilot/backend/memory"
	"pilot/backend/wire"
)

// SlashCommands lists the open project's custom commands, its MCP
// servers' prompts and the skills, by name.
func (t *Turns) SlashCommands(ctx context.Context, sessionID int64) ([]wire.SlashCommand, error) {
	dir := t.currentProject()
	cmds, problems := commands.List(t.home, t.userHome(), dir)
	for _, p := range problems {
		t.log.Warn("custom command not read", "path", p.Path, "err", p.Err)
	}
	out := make([]wire.SlashCommand, 0, len(cmds))
	for _, c := range cmds {
		out = append(out, wire.SlashCommand{Name: c.Name, Description: c.Description, ArgumentHint: c.ArgumentHint, Source: wire.SlashSource(c.Source)})
	}
	if dir != "" {
		for _, p := range t.mcp.For(dir).Prompts() {
			out = append(out, wire.SlashCommand{Name: p.Name, Description: p.Description, ArgumentHint: strings.Join(p.Args, " "), Source: "mcp"})
		}
	}
	skillDir := dir
	if sessionID != 0 && dir != "" {
		skillDir = t.skillRoot(ctx, sessionID, dir)
	}
	return append(out, t.skillCommands(skillDir, cmds)...), nil
}

// RememberFiles names the files /remember and /remember-user of the
// session's project add to.
func (t *Turns) RememberFiles(ctx context.Context, sessionID int64) (wire.RememberFiles, error) {
	dir, err := t.sessionProject(ctx, sessionID)
	if err != nil {
		return wire.RememberFiles{}, err
	}
	user, _ := memory.UserFile(t.userHome())
	return wire.RememberFiles{Project: memory.ProjectFile(dir), User: user}, nil
}

// withResources inlines the MCP resources attached to a message.
func (t *Turns) withResources(ctx context.Context, sessionID int64, text string, attachments []string) (string, []string, error) {
	has := false
	for _, a := range attachments {
		has = has || strings.HasPrefix(a, MCPResourcePrefix)
	}
	if !has {
		return text, attachments, nil
	}
	dir, err := t.sessionProject(ctx, sessionID)
	if err != nil {
		return "", nil, err
	}
	return t.svc.MCP.inlineResources(ctx, dir, text, attachments)
}

func (c *core) sessionProject(ctx context.Context, sessionID int64) (string, error) {
	s, err := c.store.Sessions.Get(ctx, sessionID)
	if err != nil {
		return "", err
	}
	p, err := c.project(ctx, s.ProjectID)
	if err != nil {
		return "", err
	}
	return p.Path, nil
}

// ErrUnknownCommand is what expanding a "/name" that names no command,
// MCP prompt or skill wraps (errors.Is).
var ErrUnknownCommand = commands.ErrUnknown

// IsCommandLine reports whether text is "/name args" with a command's
// name (a prompt command, when the face has none of its own by that name).
func IsCommandLine(text string) bool {
	_, _, ok := commands.Split(text)
	return ok
}

// BuiltinCommands are the prompt commands Pilot has built in (/init,
// /remember, /remember-user), by name.
func BuiltinCommands() []wire.SlashCommand {
	var out []wire.SlashCommand
	for _, c := range commands.Builtins() {
		out = append(out, wire.SlashCommand{Name: c.Name, Description: c.Description, ArgumentHint: c.ArgumentHint, Source: wire.SlashSource(c.Source)})
	}
	return out
}

// expandCommand turns "/name args" into its command's text for the
// session's project.
func (t *Turns) expandCommand(ctx context.Context, sessionID int64, text string) (string, error) {
	if _, _, ok := commands.Split(text); !ok {
		return text, nil
	}
	dir, err := t.sessionProject(ctx, sessionID)
	if err != nil {
		return "", err
	}
	out, _, err := commands.ExpandPrompt(ctx, t.home, t.userHome(), dir, text, t.mcp.For(dir))
	if errors.Is(err, commands.ErrUnknown) {
		if s, ok := t.expandSkill(t.skillRoot(ctx, sessionID, dir), text); ok {
			return s, nil
		}
		return out, fmt.Errorf("%w; no skill has that name either (skills are folders with a SKILL.md in .claude/skills/, .pilot/skills/, ~/.claude/skills/ or %s)", err, filepath.Join(t.home, "skills"))
	}
	return out, err
}
