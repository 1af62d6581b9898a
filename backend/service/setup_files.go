package service

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"pilot/backend/agent"
	"pilot/backend/sandbox"
	"pilot/backend/settingsjson"
	"pilot/backend/wire"
)

// refusedOr is SetupRefused for a project file Pilot did not read (a
// *sandbox.NotRead: a link out of the project, not a regular file, too
// big), else state.
func refusedOr(err error, state wire.SetupState) wire.SetupState {
	var nr *sandbox.NotRead
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
func (w *Service) setupMemory(dir string) []wire.SetupItem {
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
		var nr *sandbox.NotRead
		if errors.As(err, &nr) {
			it.Name, it.File = nr.Path, filepath.Join(dir, filepath.FromSlash(nr.Path))
		}
		out = append(out, it)
	}
	return out
}
