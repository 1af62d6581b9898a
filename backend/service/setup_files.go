package service

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"pilot/backend/agent"
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

// setupMemory is the project's instruction files the system prompt reads
// (agent.ProjectDocs, as a turn reads them): each one read, and each one
// not read with why and what to do.
func (su *Setup) setupMemory(dir string) []wire.SetupItem {
	docs, notRead := agent.ProjectDocs(dir)
	var out []wire.SetupItem
	for _, d := range docs {
		it := wire.SetupItem{Kind: wire.SetupMemory, Name: d.Name, Description: "read into the system prompt of every turn",
			File: filepath.Join(dir, d.Name), Scope: string(settingsjson.ScopeProject), State: wire.SetupActive}
		if d.Cut {
			it.Detail = fmt.Sprintf("Only its first %d KiB are read into the system prompt; the model reads the rest with read_file.", len(d.Text)>>10)
		}
		out = append(out, it)
	}
	for _, err := range notRead {
		it := wire.SetupItem{Kind: wire.SetupMemory, Scope: string(settingsjson.ScopeProject), State: refusedOr(err, wire.SetupBroken), Detail: sentence(err)}
		var nr *projectroot.NotRead
		if errors.As(err, &nr) {
			it.Name, it.File = nr.Path, filepath.Join(dir, filepath.FromSlash(nr.Path))
		}
		out = append(out, it)
	}
	return out
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
