package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"pilot/backend/service"
	"pilot/backend/wire"
)

const setupUsage = `usage:
  pilot setup [--project DIR] [--json]

Lists what Pilot found of your setup for the project: the hooks and
permission entries of the settings files (~/.claude/settings.json,
PILOT_HOME/settings.json, .claude/settings.json, .claude/settings.local.json,
.pilot/settings.json), the skills, the custom agents, the MCP servers
(PILOT_HOME/mcp.json, .mcp.json), the custom commands and the instruction
files (~/.claude/CLAUDE.md, ~/.codex/AGENTS.md, AGENTS.md, CLAUDE.md,
progress.md, CLAUDE.local.md, .claude/rules/*.md, the AGENTS.md and
CLAUDE.md of subfolders, and their @imports, with their size in tokens,
estimated), each with its file, its scope and its state (active,
untrusted, ignored, shadowed, broken, disabled, refused: a project file not
read, as it is a link out of the project, not a regular file or too big;
for instruction files also cut: too big, only its start is given; missing:
a standard place with no file) and why, then
the tool names hooks see. Nothing is started or run. The project is
--project, else PILOT_PROJECT, else the current folder.
`

// runSetup runs `pilot setup`.
func runSetup(ctx context.Context, args []string, tio IO) int {
	return runInProject(ctx, args, tio, "setup", setupUsage, []string{"--json"}, func(svc *service.Service, dir string, asJSON bool) int {
		s := svc.Setup.In(dir)
		if asJSON {
			if err := json.NewEncoder(tio.Stdout).Encode(s); err != nil {
				return exitFailure
			}
			return exitOK
		}
		printSetup(tio.Stdout, s)
		return exitOK
	})
}

// setupHeadings titles each kind, in the order Setup lists them.
var setupHeadings = []struct {
	kind  wire.SetupKind
	title string
}{
	{wire.SetupHook, "Hooks"},
	{wire.SetupSkill, "Skills"},
	{wire.SetupAgent, "Agents"},
	{wire.SetupRule, "Permission rules from settings files"},
	{wire.SetupMCP, "MCP servers"},
	{wire.SetupCommand, "Commands"},
	{wire.SetupMemory, "Instruction files"},
}

// printSetup writes s for a person: a section per kind with an item a
// line (state, name, what, file and scope) and why under it, then the
// tool names hooks see.
func printSetup(w io.Writer, s wire.Setup) {
	s = lineFields(s) // the files' commands, names, descriptions, every character visible
	fmt.Fprintf(w, "Setup of %s\n", s.Project)
	for _, h := range setupHeadings {
		var items []wire.SetupItem
		for _, it := range s.Items {
			if it.Kind == h.kind {
				items = append(items, it)
			}
		}
		if len(items) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", h.title)
		for _, it := range items {
			name := it.Name
			if it.Matcher != "" {
				name += " [" + it.Matcher + "]"
			}
			what := ""
			if it.Description != "" {
				what = "  " + it.Description
			}
			if it.Tokens > 0 {
				what += fmt.Sprintf(" (about %d tokens, estimated)", it.Tokens)
			}
			fmt.Fprintf(w, "  %-9s %s%s\n            %s (%s)\n", it.State, name, what, it.File, it.Scope)
			if it.Detail != "" {
				fmt.Fprintf(w, "            %s\n", it.Detail)
			}
		}
	}
	if s.NeedsTrust {
		fmt.Fprintf(w, "\nSome of the project's files wait for your trust: run pilot trust --project %s to see and trust them.\n", s.Project)
	}
	fmt.Fprint(w, "\nTool names hooks see (Pilot → Claude Code):\n")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, n := range s.ToolNames {
		fmt.Fprintf(tw, "  %s\t%s\n", n.Pilot, n.Claude)
	}
	tw.Flush()
}
