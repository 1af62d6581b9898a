package service

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/commands"
	"pilot/backend/store"
)

func writeSkill(t *testing.T, dir, name, desc string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	text := "---\nname: " + name + "\ndescription: " + desc + "\n---\nThe body of " + name + ".\n"
	if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The / picker lists the skills of the four folders and ~/.claude/commands;
// "/name args" of a skill asks the model to use it, a command of the same
// name wins, and an unknown name says where both live.
func TestSlashSkillsAndUserClaudeCommands(t *testing.T) {
	t.Parallel()
	home, user, dir := t.TempDir(), t.TempDir(), t.TempDir()
	writeSkill(t, filepath.Join(user, ".claude", "skills"), "review", "Review a change.")
	writeSkill(t, filepath.Join(home, "skills"), "notes", "Take notes.")
	writeSkill(t, filepath.Join(dir, ".claude", "skills"), "pdf", "Fill PDF forms.")
	writeSkill(t, filepath.Join(dir, ".pilot", "skills"), "fix", "A skill hidden by the command fix.")
	for path, text := range map[string]string{
		filepath.Join(dir, ".claude", "commands", "fix.md"):  "Fix $ARGUMENTS",
		filepath.Join(user, ".claude", "commands", "std.md"): "Write my standup.",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": user}
	w, err := Open(context.Background(), Options{Home: home, Log: discardLog(), Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if _, err := w.Projects.Open(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	cmds, err := w.Turns.SlashCommands(context.Background(), 0)
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name+"/"+string(c.Source))
	}
	if want := "fix/project-claude,std/user-claude,notes/skill,pdf/skill,review/skill"; err != nil || strings.Join(names, ",") != want {
		t.Fatalf("slash commands %v %v, want %s", names, err, want)
	}
	sess, err := w.core.store.Sessions.Create(context.Background(), store.NewSession{ProjectID: mustProject(t, w, dir), Provider: "anthropic"})
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"/pdf fill form.pdf": "Use the skill \"pdf\": call the skill tool with name \"pdf\" now and follow its instructions. The task:\n\nfill form.pdf",
		"/review":            "Use the skill \"review\": call the skill tool with name \"review\" now and follow its instructions.",
		"/fix the bug":       "Fix the bug",
		"/std":               "Write my standup.",
	} {
		if got, err := w.Turns.ExpandCommand(context.Background(), sess.ID, in); err != nil || got != want {
			t.Errorf("expand %q = %q, %v; want %q", in, got, err, want)
		}
	}
	// A worktree session sees the skills of its worktree, as its agent does.
	wt := t.TempDir()
	writeSkill(t, filepath.Join(wt, ".claude", "skills"), "branch-only", "A skill only the branch has.")
	wsess, err := w.core.store.Sessions.Create(context.Background(), store.NewSession{ProjectID: sess.ProjectID, Provider: "anthropic",
		Worktree: store.Worktree{Path: wt, Branch: "pilot/x", Base: "main"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := w.Turns.ExpandCommand(context.Background(), wsess.ID, "/branch-only"); err != nil || !strings.Contains(got, `Use the skill "branch-only"`) {
		t.Errorf("/branch-only in the worktree session: %q, %v", got, err)
	}
	if _, err := w.Turns.ExpandCommand(context.Background(), sess.ID, "/branch-only"); !errors.Is(err, commands.ErrUnknown) {
		t.Errorf("/branch-only in the project folder's session: %v, want unknown", err)
	}
	// The / picker lists what the open session sees: the worktree's skill
	// for the worktree session, not for the folder session.
	listed := func(sessionID int64) bool {
		cmds, err := w.Turns.SlashCommands(context.Background(), sessionID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cmds {
			if c.Name == "branch-only" {
				return true
			}
		}
		return false
	}
	if !listed(wsess.ID) || listed(sess.ID) {
		t.Errorf("the / picker: branch-only listed for the worktree session %v, for the folder session %v; want only the first", listed(wsess.ID), listed(sess.ID))
	}
	_, err = w.Turns.ExpandCommand(context.Background(), sess.ID, "/nope")
	if !errors.Is(err, commands.ErrUnknown) || !strings.Contains(err.Error(), "no skill has that name either") {
		t.Errorf("unknown /nope: %v", err)
	}
}
