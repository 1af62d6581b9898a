// Package archtest checks which package of the module may import which:
// the two faces (the window and the CLI) stand on the service, the wire
// types and (the window) its bridge to Wails, and not on each other;
// nothing under the faces imports the service, and no package imports one
// from a higher layer. It has only tests;
// `make boundaries` runs them. This file holds the tables; check_test.go the
// check.
package archtest

// The layers, low to high. A package may import packages of its own layer
// and of the layers below it, never above.
const (
	leafLayer    = iota // utilities that know nothing of Pilot's domain
	domainLayer         // settings, store, ledger, tools, MCP, rules, views
	agentLayer          // the agent loop
	serviceLayer        // the application both faces call, and its window-side helpers
	faceLayer           // the faces (window, CLI) and the other main packages
)

var layerNames = [...]string{"a leaf utility", "a domain", "an agent", "a service", "a face"}

// layers places every package of the module. A package that is not here
// fails the check: say where a new package belongs when you add it.
var layers = map[string]int{
	"pilot/backend/approval":                         domainLayer,
	"pilot/backend/childenv":                         leafLayer,
	"pilot/backend/commands":                         leafLayer,
	"pilot/backend/config":                           domainLayer,
	"pilot/backend/secret":                           leafLayer,
	"pilot/backend/settingsjson":                     leafLayer, // Claude Code's and Pilot's settings.json: hooks, permission rules
	"pilot/backend/skills":                           leafLayer, // Agent Skills: SKILL.md folders
	"pilot/backend/memory":                           leafLayer, // instruction files at every level: AGENTS.md, CLAUDE.md, rules, imports
	"pilot/backend/sandbox":                          leafLayer,
	"pilot/backend/diff":                             leafLayer,
	"pilot/backend/doctor":                           domainLayer,
	"pilot/backend/frontmatter":                      leafLayer,   // Markdown with YAML front matter: skills' and agents' files
	"pilot/backend/flock":                            leafLayer,   // file locks: flock(2) on Unix, LockFileEx on Windows
	"pilot/backend/procgroup":                        leafLayer,   // a command with what it starts: a process group, a Job Object on Windows
	"pilot/backend/folder":                           leafLayer,   // what several packages ask of a folder on disk
	"pilot/backend/option":                           leafLayer,   // an option's number at or below zero stands for its default
	"pilot/backend/trustfile":                        leafLayer,   // what the user trusted, as content hashes in a JSON file
	"pilot/backend/ownerfile":                        leafLayer,   // a file kept to its owner: mode 0600, an owner-only ACL on Windows
	"pilot/backend/git":                              domainLayer, // the user's git: worktrees, branches, diffs, commits
	"pilot/backend/branch":                           domainLayer, // a worktree's branch: its review in hunks and their merge
	"pilot/backend/gate":                             domainLayer,
	"pilot/backend/hooks":                            domainLayer, // settings.json hooks run with Claude Code's semantics
	"pilot/backend/customagent":                      domainLayer, // custom agents: .claude/agents/*.md (task subagent_type)
	"pilot/backend/hostaddr":                         leafLayer,
	"pilot/backend/hostexec":                         leafLayer, // finds the programs Pilot starts on the host: absolute PATH entries, outside the projects
	"pilot/backend/ledger":                           domainLayer,
	"pilot/backend/llm":                              leafLayer,
	"pilot/backend/lsp":                              leafLayer, // the user's language servers over LSP: diagnostics
	"pilot/backend/logging":                          leafLayer,
	"pilot/backend/mcp":                              domainLayer,
	"pilot/backend/mcpauth":                          domainLayer,
	"pilot/backend/modelfacts":                       domainLayer, // a model's window, answer limit and prices, and where each came from
	"pilot/backend/namesort":                         leafLayer,
	"pilot/backend/netproxy":                         domainLayer,
	"pilot/backend/packaging":                        leafLayer,
	"pilot/backend/paths":                            leafLayer,
	"pilot/backend/permission":                       leafLayer,
	"pilot/backend/rules":                            domainLayer,
	"pilot/backend/settingsrules":                    domainLayer, // settings files' permission entries mapped to Pilot's rules
	"pilot/backend/projectroot":                      leafLayer,
	"pilot/backend/store":                            domainLayer,
	"pilot/backend/todo":                             leafLayer,
	"pilot/backend/toolname":                         leafLayer, // the built-in tools' names, defined once
	"pilot/backend/tools":                            domainLayer,
	"pilot/backend/version":                          leafLayer,
	"pilot/backend/present":                          domainLayer,
	"pilot/backend/webfetch":                         domainLayer,
	"pilot/backend/websearch":                        domainLayer,
	"pilot/backend/wire":                             leafLayer,
	"pilot/backend/agent":                            agentLayer,
	"pilot/backend/review":                           agentLayer, // /review: a read-only helper that reviews changes and returns findings on lines
	"pilot/backend/service":                          serviceLayer,
	"pilot/backend/notify":                           serviceLayer, // the window's desktop notifications, fed by the agent's events
	"pilot/backend/wailsbridge":                      serviceLayer, // the window's adapter to the Wails runtime
	"pilot":                                          faceLayer,    // the window (app.go) and the entry (main.go)
	"pilot/backend/cli":                              faceLayer,
	"pilot/backend/cli/visible":                      faceLayer, // outside text shown on a terminal with every character visible
	"pilot/backend/internal/dbustest":                leafLayer, // test helpers
	"pilot/backend/internal/fakellm":                 leafLayer,
	"pilot/backend/internal/mcptest":                 leafLayer,
	"pilot/backend/internal/keyvars":                 leafLayer,
	"pilot/backend/internal/proctest":                leafLayer,
	"pilot/backend/notify/notifytest":                leafLayer,
	"pilot/backend/projectroot/escapetest":           leafLayer,
	"pilot/backend/internal/fakellm/cmd/fakellm":     faceLayer, // main packages of their own
	"pilot/backend/internal/mcptest/cmd/mcpoauth":    faceLayer,
	"pilot/backend/internal/mcptest/cmd/mcpstdio":    faceLayer,
	"pilot/backend/internal/wiregen":                 faceLayer, // the generator of wire.gen.ts
	"pilot/backend/notify/notifytest/cmd/fakenotify": faceLayer,
	"pilot/backend/packaging/cmd/iconset":            faceLayer,
	"pilot/backend/tools/cmd/toolbench":              faceLayer,
}

// The faces: the window is the files of package main but main.go (main.go
// is the entry that picks a face, so it may import the CLI too); the CLI
// is backend/cli and everything under it. A face imports the service, the
// wire types and (the window and the entry) the window's bridge; the
// tables below list the rest.
const (
	windowPkg   = "pilot"
	windowEntry = "main.go"
	cliPkg      = "pilot/backend/cli"
	servicePkg  = "pilot/backend/service"
	wirePkg     = "pilot/backend/wire"
	bridgePkg   = "pilot/backend/wailsbridge"
)

// windowOnly are the packages that belong to the window: the CLI imports
// none of them.
var windowOnly = map[string]bool{
	windowPkg:                   true,
	"pilot/backend/wailsbridge": true,
	"pilot/backend/notify":      true,
}

// faceAllowed is all a face imports from the module besides the service,
// the wire types and the window's bridge.
var faceAllowed = map[string]map[string]string{
	"window": {
		"pilot/backend/version": "the type of App.Version's result (version.Info), which the window's bound API declares; its value comes from service.Version",
	},
	"entry": {
		cliPkg: "the entry runs the CLI when the arguments ask for no window",
	},
	"cli": {},
}

// faceOutside is all a face imports from outside the module and the
// standard library, by path prefix.
var faceOutside = map[string]map[string]string{
	"window": {"github.com/wailsapp/wails/v2": "Wails itself: the window's application, options and runtime"},
	"entry":  {"github.com/wailsapp/wails/v2": "Wails itself: the entry starts the window"},
	"cli":    {"golang.org/x/term": "whether a stream is a terminal, and reading a line without echo: the terminal's own concern"},
}

// faceImportsToRemove are imports of the faces that break the rules
// above while they are being moved onto the service. It is empty: both
// faces import only the service, the wire types and faceAllowed. An entry
// that is no longer needed fails the check.
var faceImportsToRemove = map[string]map[string]string{}

// upwardExceptions are known imports up a layer, each being fixed on
// issue 24. An entry that is no longer needed fails the check.
var upwardExceptions = map[edge]string{}
