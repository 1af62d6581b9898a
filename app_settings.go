package main

// Settings, the sandbox's folders, models, permission rules, MCP servers
// and the composer's lists: the window's bound calls for what configures
// Pilot rather than what a session does (app.go has those).

import (
	"pilot/backend/wire"
)

// GetSettings returns the effective settings and where each value comes from.
func (a *App) GetSettings() (wire.SettingsView, error) { return a.ws().Settings.Get() }

// SaveSettings stores the settings form.
func (a *App) SaveSettings(in wire.SettingsInput) (wire.SettingsView, error) {
	return a.ws().Settings.Save(in)
}

// SandboxStatus reports whether commands can run in the OS sandbox here,
// why not, and the extra paths hidden from them.
func (a *App) SandboxStatus() (wire.SandboxStatus, error) { return a.ws().Sandbox.Status() }

// SetSandboxHidden saves the extra paths the sandbox hides from commands.
func (a *App) SetSandboxHidden(paths []string) (wire.SandboxStatus, error) {
	return a.ws().Sandbox.SetHidden(paths)
}

// SetSandboxSockets saves the host's unix sockets commands may connect to.
func (a *App) SetSandboxSockets(paths []string) (wire.SandboxStatus, error) {
	return a.ws().Sandbox.SetSockets(paths)
}

// ListModels asks a server for its models.
func (a *App) ListModels(provider, baseURL, apiKey string) ([]string, error) {
	return a.ws().Settings.Models(a.ctx, provider, baseURL, apiKey)
}

// SetModelOverride saves what the user states of a model (Settings ›
// Models); an override with no fact set removes the model's.
func (a *App) SetModelOverride(o wire.ModelOverride) (wire.SettingsView, error) {
	return a.ws().Settings.SetModelOverride(o)
}

// ListRules returns the project's permission rules.
func (a *App) ListRules(projectID int64) ([]wire.Rule, error) {
	return a.ws().Rules.List(a.ctx, projectID)
}

// ImportedRules lists the rules the project's settings files bring, and
// the entries ignored with their reasons.
func (a *App) ImportedRules(projectID int64) (wire.ImportedRules, error) {
	return a.ws().Rules.Imported(a.ctx, projectID)
}

// Setup lists what Pilot found of the user's setup for the project:
// hooks, skills, rules, MCP servers and commands with file, scope and
// state, and the tool names hooks see (Settings › Setup).
func (a *App) Setup(projectID int64) (wire.Setup, error) {
	return a.ws().Setup.Of(a.ctx, projectID)
}

// AddRule stores a permission rule for the project.
func (a *App) AddRule(projectID int64, tool, pattern, effect string) (wire.Rule, error) {
	return a.ws().Rules.Add(a.ctx, projectID, tool, pattern, effect)
}

// DeleteRule removes a permission rule of the project (a rule of another
// project is refused and left alone).
func (a *App) DeleteRule(projectID, ruleID int64) error {
	_, err := a.ws().Rules.Remove(a.ctx, projectID, ruleID)
	return err
}

// MCPServers lists the MCP servers of the open project with their state.
func (a *App) MCPServers() (wire.MCPServers, error) { return a.ws().MCP.Servers() }

// MCPTrustPrompt says whether the open project's .mcp.json waits for trust.
func (a *App) MCPTrustPrompt() (wire.MCPTrustPrompt, error) { return a.ws().MCP.TrustPrompt() }

// MCPTrust trusts the open project's .mcp.json as shown and starts its servers.
func (a *App) MCPTrust(hash string) error { return a.ws().MCP.Trust(hash) }

// TrustProject trusts everything the trust prompt showed (its token): the
// .mcp.json's servers start, the settings files' allow rules apply and
// their hooks run.
func (a *App) TrustProject(token string) error { return a.ws().Trust.Project(token) }

// MCPSignIn starts the sign-in (OAuth) of an HTTP MCP server of the open
// project: the browser opens on its authorization page; MCPUpdated
// follows when the sign-in ends.
func (a *App) MCPSignIn(name string) (wire.MCPSignInStarted, error) { return a.ws().MCP.SignIn(name) }

// MCPSignOut forgets an MCP server's sign-in.
func (a *App) MCPSignOut(name string) error { return a.ws().MCP.SignOut(name) }

// MCPSaveServer adds or replaces an MCP server.
func (a *App) MCPSaveServer(in wire.MCPServerInput) error { return a.ws().MCP.SaveServer(in) }

// MCPRemoveServer removes an MCP server from its scope's file.
//
//wiregen:param scope MCPScope
func (a *App) MCPRemoveServer(scope, name string) error { return a.ws().MCP.RemoveServer(scope, name) }

// MCPSetDisabled turns an MCP server off or on.
//
//wiregen:param scope MCPScope
func (a *App) MCPSetDisabled(scope, name string, disabled bool) error {
	return a.ws().MCP.SetDisabled(scope, name, disabled)
}

// ListSlashCommands lists the open project's custom commands and MCP
// prompts, and the skills the open session (0: none) sees.
func (a *App) ListSlashCommands(sessionID int64) ([]wire.SlashCommand, error) {
	return a.ws().Turns.SlashCommands(a.ctx, sessionID)
}

// RememberFiles names the files the "Remember" form of a session's
// message adds to.
func (a *App) RememberFiles(sessionID int64) (wire.RememberFiles, error) {
	return a.ws().Turns.RememberFiles(a.ctx, sessionID)
}

// FindMCPResources lists the open project's MCP resources for the @ picker.
func (a *App) FindMCPResources(query string, limit int) ([]wire.MCPResource, error) {
	return a.ws().MCP.FindResources(query, limit)
}
