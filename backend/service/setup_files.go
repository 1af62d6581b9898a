package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"pilot/backend/memory"
	"pilot/backend/projectroot"
	"pilot/backend/settingsjson"
	"pilot/backend/trustfile"
	"pilot/backend/wire"
)

// refusedOr is SetupRefused for a project file Pilot did not read (a
// *projectroot.NotRead: a link out of the project, not a regular file, too
// big), else state.
func refusedOr(err error, state wire.SetupState) wire.SetupState {
	var nr *projectroot.NotRead
	if errors.As(err, &nr) {
		return wire.SetupRefused
	}
	return state
}

// sentence is err's text as a sentence.
func sentence(err error) string {
	s := strings.TrimSpace(err.Error())
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// memoryStates are the Setup states of the instruction files' states.
var memoryStates = map[memory.State]wire.SetupState{
	memory.InForce:  wire.SetupActive,
	memory.Cut:      wire.SetupCut,
	memory.Shadowed: wire.SetupShadowed,
	memory.NotFound: wire.SetupMissing,
	memory.Refused:  wire.SetupRefused,
}

// nestedLimit bounds the look for nested instruction files in a big
// project: Setup lists those found by then.
const nestedLimit = 2 * time.Second

// setupMemory is the instruction files a session in dir reads, as a turn
// reads them (memory.Load: the user's, the project's, CLAUDE.local.md,
// .claude/rules, with their imports; the standard places not found
// included), then the nested ones of the project's folders
// (memory.Nested) and the rules with paths: (memory.PathRules), each
// with its state and its size in tokens.
func (su *Setup) setupMemory(dir string) []wire.SetupItem {
	inPrompt := memory.Load(su.userHome(), dir)
	files := slices.Clone(inPrompt)
	ctx, cancel := context.WithTimeout(context.Background(), nestedLimit)
	defer cancel()
	for _, folder := range memory.NestedFolders(ctx, dir) {
		files = append(files, memory.Nested(su.userHome(), dir, []string{folder}, inPrompt)...)
	}
	files = append(files, memory.PathRules(su.userHome(), dir, inPrompt)...)
	out := make([]wire.SetupItem, 0, len(files))
	for _, f := range files {
		out = append(out, wire.SetupItem{Kind: wire.SetupMemory, Name: f.Name, Description: memoryWhen(f), File: f.Path,
			Scope: memoryScope(f), State: memoryStates[f.State], Detail: f.Why, Tokens: f.Tokens()})
	}
	return out
}

// memoryWhen says when the model is given the file.
func memoryWhen(f memory.File) string {
	globs := strings.Join(f.Paths, ", ")
	switch {
	case f.Level == memory.LevelRule && globs != "":
		return "a rule for files matching " + globs + ": given to the model with the first read or change of such a file"
	case f.Level == memory.LevelImport && globs != "":
		return "imported by " + f.By + ": given with it, with the first read or change of a file matching " + globs
	case f.Level == memory.LevelNested:
		return "nested: given to the model with the first read or change of a file under " + f.Folder + "/"
	case f.Level == memory.LevelImport && f.Folder != "":
		return "imported by " + f.By + ": given with it, with the first read or change of a file under " + f.Folder + "/"
	case f.Level == memory.LevelImport:
		return "imported by " + f.By + ": in the system prompt of every turn, after it"
	}
	return string(f.Level) + " level: in the system prompt of every turn"
}

// memoryScope is an instruction file's scope: user (the home folder's),
// local (CLAUDE.local.md) or project.
func memoryScope(f memory.File) string {
	switch {
	case strings.HasPrefix(f.Name, "~/"):
		return string(settingsjson.ScopeUser)
	case f.Level == memory.LevelLocal:
		return string(settingsjson.ScopeLocal)
	}
	return string(settingsjson.ScopeProject)
}

// scriptItems are the trust prompt's lines for the scripts the hooks of f
// run: trusting f trusts each as it is now (a change asks again).
func scriptItems(f settingsjson.File, pilotHome string) []string {
	changed := map[string]bool{}
	for _, rel := range settingsjson.ChangedScripts(pilotHome, f) {
		changed[rel] = true
	}
	var out []string
	for _, s := range f.Scripts {
		what := fmt.Sprintf("%d bytes, sha256 %s", len(s.Raw), trustfile.Hash(s.Raw)[:12])
		if s.Missing {
			what = "not there yet: one made later asks again"
		}
		line := "script " + s.Rel + " (" + what + ")"
		if changed[s.Rel] {
			line += ", changed since you trusted it"
		}
		out = append(out, line)
	}
	return out
}

// refusedScript is the sentence of the first script of f's hooks Pilot
// did not read ("" for none).
func refusedScript(f settingsjson.File) string {
	for _, s := range f.Scripts {
		if s.Err != nil {
			return sentence(s.Err)
		}
	}
	return ""
}

// runsScripts says which project files the hook h of f runs ("" for
// none): a project's file is trusted with them as they are.
func runsScripts(dir string, f settingsjson.File, h settingsjson.Hook) string {
	rels, _ := settingsjson.ScriptsOf(dir, settingsjson.Hooks{"": {{Hooks: []settingsjson.Hook{h}}}})
	if len(rels) == 0 {
		return ""
	}
	if f.Scope.FromProject() {
		return fmt.Sprintf("It runs the project's %s, trusted with the file as it is now (a change asks again).", strings.Join(rels, ", "))
	}
	return fmt.Sprintf("It runs the project's %s, which the sandbox keeps read-only for commands.", strings.Join(rels, ", "))
}

// joinSentences joins the non-empty sentences with a space.
func joinSentences(ss ...string) string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}
