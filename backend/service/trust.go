package service

import (
	"errors"
	"slices"
	"strings"

	"pilot/backend/mcp"
	"pilot/backend/settingsjson"
	"pilot/backend/wire"
)

// One trust for everything a project's files would let run or allow: the
// servers of its .mcp.json and, for each of its settings files
// (.claude/settings.json, .claude/settings.local.json,
// .pilot/settings.json), the allow rules and hooks it holds. The prompt
// (MCPTrustPrompt, MCPTrustPromptIn; pilot trust) shows them all; trusting
// (TrustProject, TrustProjectIn) records the hash of each file shown, and
// a file changed since asks again.

// withSettings adds the settings files' sections to p (the .mcp.json part
// is filled) and sets Needed and Token.
func (w *Service) withSettings(p *wire.MCPTrustPrompt, dir string) {
	p.Sections = w.settingsTrustSections(dir)
	if p.Needed && len(p.Servers) > 0 {
		p.Sections = append([]wire.TrustSection{{Kind: wire.TrustMCP, Path: p.Path, Scope: "project", Hash: p.Hash, Items: serverItems(p.Servers), Changed: p.Changed}}, p.Sections...)
	}
	p.Needed = p.Needed || len(p.Sections) > 0
	p.Token = ""
	if p.Needed {
		var b strings.Builder
		b.WriteString("mcp\x00" + p.Hash)
		for _, s := range p.Sections {
			b.WriteString("\x00" + string(s.Kind) + "\x00" + s.Path + "\x00" + s.Hash)
		}
		p.Token = settingsjson.Hash([]byte(b.String()))
	}
}

func serverItems(ss []wire.MCPTrustServer) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Name + ": " + s.Display
	}
	return out
}

// errTrustStale: the files changed between the prompt and the answer.
var errTrustStale = errors.New("the project's files changed since they were shown, so nothing was trusted: look at them again and trust what you see")

// TrustProject trusts everything the open project's trust prompt showed
// (token: its Token): the .mcp.json, whose servers start, and the
// settings files, whose allow rules apply and hooks run from now on.
func (w *Service) TrustProject(token string) error {
	h, dir, err := w.mcpHub()
	if err != nil {
		return err
	}
	p, err := w.MCPTrustPrompt()
	if err != nil || !p.Needed {
		return err
	}
	if err := w.trustShown(p, token, h.Trust); err != nil {
		return err
	}
	w.Emit(wire.MCPUpdated, wire.MCPUpdatedPayload{Project: dir})
	return nil
}

// TrustProjectIn is TrustProject for the folder dir (pilot trust), with
// the token of MCPTrustPromptIn(dir).
func (w *Service) TrustProjectIn(dir, token string) error {
	p, err := w.MCPTrustPromptIn(dir)
	if err != nil {
		return err
	}
	return w.trustShown(p, token, func(hash string) error { return mcp.Trust(w.home, dir, hash) })
}

// trustShown trusts what the prompt p showed while token is still its
// token: the settings files, then the .mcp.json through trustMCP.
func (w *Service) trustShown(p wire.MCPTrustPrompt, token string, trustMCP func(hash string) error) error {
	if !p.Needed {
		return nil
	}
	if p.Token != token {
		return errTrustStale
	}
	if err := w.trustSettings(p); err != nil {
		return err
	}
	if mcpShown(p) {
		return trustMCP(p.Hash)
	}
	return nil
}

// mcpShown reports whether p showed the .mcp.json's servers.
func mcpShown(p wire.MCPTrustPrompt) bool {
	for _, s := range p.Sections {
		if s.Kind == wire.TrustMCP {
			return true
		}
	}
	return false
}

// trustSettings records the trust of each settings file p showed, with
// the scripts its hooks name, as they are still what was shown.
func (w *Service) trustSettings(p wire.MCPTrustPrompt) error {
	files := w.SettingsFiles(p.Project)
	for _, s := range p.Sections {
		if s.Kind == wire.TrustMCP {
			continue
		}
		i := slices.IndexFunc(files, func(f settingsjson.File) bool { return f.Path == s.Path && f.TrustHash() == s.Hash })
		if i < 0 {
			return errTrustStale
		}
		if err := settingsjson.Trust(w.home, files[i]); err != nil {
			return err
		}
	}
	return nil
}
