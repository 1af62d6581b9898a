package service

import (
	"errors"
	"slices"
	"strings"

	"pilot/backend/mcp"
	"pilot/backend/settingsjson"
	"pilot/backend/trustfile"
	"pilot/backend/wire"
)

// Trust is a project's trust: its MCP servers and settings.
type Trust struct{ *core }

// One trust for everything a project's files would let run or allow: the
// servers of its .mcp.json and, for each of its settings files
// (.claude/settings.json, .claude/settings.local.json,
// .pilot/settings.json), the allow rules and hooks it holds. The prompt
// (MCP.TrustPrompt, MCP.TrustPromptIn; pilot trust) shows them all; trusting
// (Trust.Project, Trust.ProjectIn) records the hash of each file shown, and
// a file changed since asks again.

// withSettings adds the settings files' sections to p (the .mcp.json part
// is filled) and sets Needed and Token.
func (tr *Trust) withSettings(p *wire.MCPTrustPrompt, dir string) {
	p.Sections = tr.svc.Rules.trustSections(dir)
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
		p.Token = trustfile.Hash([]byte(b.String()))
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

// Project trusts everything the open project's trust prompt showed
// (token: its Token): the .mcp.json, whose servers start, and the
// settings files, whose allow rules apply and hooks run from now on.
func (tr *Trust) Project(token string) error {
	h, dir, err := tr.svc.MCP.hub()
	if err != nil {
		return err
	}
	p, err := tr.svc.MCP.TrustPrompt()
	if err != nil || !p.Needed {
		return err
	}
	if err := tr.shown(p, token, h.Trust); err != nil {
		return err
	}
	tr.publish(wire.MCPUpdated, wire.MCPUpdatedPayload{Project: dir})
	return nil
}

// ProjectIn is Project for the folder dir (pilot trust), with
// the token of MCP.TrustPromptIn(dir).
func (tr *Trust) ProjectIn(dir, token string) error {
	p, err := tr.svc.MCP.TrustPromptIn(dir)
	if err != nil {
		return err
	}
	return tr.shown(p, token, func(hash string) error { return mcp.Trust(tr.home, dir, hash) })
}

// shown trusts what the prompt p showed while token is still its
// token: the settings files, then the .mcp.json through trustMCP.
func (tr *Trust) shown(p wire.MCPTrustPrompt, token string, trustMCP func(hash string) error) error {
	if !p.Needed {
		return nil
	}
	if p.Token != token {
		return errTrustStale
	}
	if err := tr.settings(p); err != nil {
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

// settings records the trust of each settings file p showed, with
// the scripts its hooks name, as they are still what was shown.
func (tr *Trust) settings(p wire.MCPTrustPrompt) error {
	files := tr.svc.Rules.SettingsFiles(p.Project)
	for _, s := range p.Sections {
		if s.Kind == wire.TrustMCP {
			continue
		}
		i := slices.IndexFunc(files, func(f settingsjson.File) bool { return f.Path == s.Path && f.TrustHash() == s.Hash })
		if i < 0 {
			return errTrustStale
		}
		if err := settingsjson.Trust(tr.home, files[i]); err != nil {
			return err
		}
	}
	return nil
}
