package service

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"pilot/backend/commands"
	"pilot/backend/customagent"
	"pilot/backend/hooks"
	"pilot/backend/mcp"
	"pilot/backend/settingsjson"
	"pilot/backend/trustfile"
	"pilot/backend/wire"
)

// Setup is what a project has set up: hooks, skills, agents, rules, MCP,
// commands and memory.
type Setup struct{ *core }

// In lists what Pilot found of the user's setup for the project folder
// dir: the hooks and permission entries of its settings files, its
// skills, its MCP servers, its custom commands and its instruction files
// (a project file Pilot did not read is refused), each with its file,
// scope and state (Settings › Setup and `pilot setup` show it), and the
// tool names hooks see. Nothing is started or run to find it.
func (su *Setup) In(dir string) wire.Setup {
	out := wire.Setup{Project: dir, Items: []wire.SetupItem{}, ToolNames: hookToolNames()}
	out.Items = append(out.Items, su.setupHooks(dir)...)
	out.Items = append(out.Items, su.setupSkills(dir)...)
	out.Items = append(out.Items, su.setupAgents(dir)...)
	out.Items = append(out.Items, su.setupRules(dir)...)
	out.Items = append(out.Items, su.setupMCP(dir)...)
	out.Items = append(out.Items, su.setupCommands(dir)...)
	out.Items = append(out.Items, su.setupMemory(dir)...)
	if p, err := su.svc.MCP.TrustPromptIn(dir); err == nil {
		out.NeedsTrust = p.Needed
	}
	return out
}

// Of is Setup for the project projectID (the window's Settings ›
// Setup).
func (su *Setup) Of(ctx context.Context, projectID int64) (wire.Setup, error) {
	p, err := su.project(ctx, projectID)
	if err != nil {
		return wire.Setup{}, err
	}
	return su.In(p.Path), nil
}

// hookToolNames is hooks.Names sorted by Pilot's tool name.
func hookToolNames() []wire.HookToolName {
	out := make([]wire.HookToolName, 0, len(hooks.Names))
	for p, c := range hooks.Names {
		out = append(out, wire.HookToolName{Pilot: p, Claude: c})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pilot < out[j].Pilot })
	return out
}

// untrustedSentence says why a project file's hooks or allow rules are not
// in force, and what to do.
func untrustedSentence(file, what string) string {
	return fmt.Sprintf("Not trusted: %s is the project's, and its %s only once you trust it as it is now (pilot trust, the trust prompt, or Review and trust… in Settings › Setup).", file, what)
}

// setupHooks is every hook of dir's settings files. Whether one can run is
// what the hooks package says of its matcher group alone (so the reasons
// are the ones a run would log); a project file's hooks then wait for
// trust. A file that cannot be read is listed with the rules.
func (su *Setup) setupHooks(dir string) []wire.SetupItem {
	var out []wire.SetupItem
	trustAll := func(settingsjson.File) bool { return true }
	for _, f := range su.svc.Rules.SettingsFiles(dir) {
		if f.Err != nil {
			continue
		}
		trusted := !f.Scope.FromProject() || su.svc.Rules.SettingsTrusted(f)
		events := make([]string, 0, len(f.Hooks))
		for e := range f.Hooks {
			events = append(events, e)
		}
		sort.Strings(events)
		for _, e := range events {
			for _, g := range f.Hooks[e] {
				one := f
				one.Hooks = settingsjson.Hooks{e: {g}}
				state, detail := wire.SetupActive, ""
				if ig := hooks.New([]settingsjson.File{one}, hooks.Options{Trusted: trustAll}).Ignored(); len(ig) > 0 {
					state, detail = wire.SetupIgnored, strings.Join(ig, " ")
				} else if !trusted {
					state, detail = wire.SetupUntrusted, settingsjson.Untrusted(su.home, f, "hooks run")
				}
				for _, h := range g.Hooks {
					what := h.Command
					if h.Type != "command" {
						what = h.Type + " hook"
					}
					out = append(out, wire.SetupItem{Kind: wire.SetupHook, Name: e, Matcher: g.Matcher, Description: what,
						File: f.Path, Scope: string(f.Scope), State: state, Detail: joinSentences(detail, runsScripts(dir, f, h))})
				}
			}
		}
	}
	return out
}

// setupSkills is every skill a session in dir sees, the shadowed ones and
// the SKILL.md folders that cannot be used.
func (su *Setup) setupSkills(dir string) []wire.SetupItem {
	set := su.svc.Turns.Skills(dir)
	var out []wire.SetupItem
	for _, k := range set.Skills {
		out = append(out, wire.SetupItem{Kind: wire.SetupSkill, Name: k.Name, Description: k.Description, File: k.Path, Scope: string(k.Scope), State: wire.SetupActive})
	}
	for _, p := range set.Problems {
		it := wire.SetupItem{Kind: wire.SetupSkill, Name: p.Name, File: p.Path, Scope: string(p.Scope), State: wire.SetupBroken, Detail: p.String() + "."}
		if p.ShadowedBy != "" {
			it.State = wire.SetupShadowed
		}
		if it.Name == "" {
			it.Name = lastElem(p.Path)
		}
		out = append(out, it)
	}
	return out
}

// setupAgents is the custom agents a session in dir can hand a task to
// (customagent.Load, as the agent finds them), and the files it does not use.
func (su *Setup) setupAgents(dir string) []wire.SetupItem {
	set := customagent.Load(su.userHome(), su.home, dir)
	var out []wire.SetupItem
	for _, a := range set.Agents {
		detail := "Read-only: it runs as a helper does."
		if !a.ReadOnly() {
			detail = "It may change files or run commands: each change and command waits for your approval, as the session's do."
		}
		if len(a.Ignored) > 0 {
			detail += " Not given: " + strings.Join(a.Ignored, "; ") + "."
		}
		out = append(out, wire.SetupItem{Kind: wire.SetupAgent, Name: a.Name, Description: a.Description, File: a.Path, Scope: string(a.Scope), State: wire.SetupActive, Detail: detail})
	}
	for _, p := range set.Problems {
		it := wire.SetupItem{Kind: wire.SetupAgent, Name: p.Name, File: p.Path, Scope: string(p.Scope), State: wire.SetupBroken, Detail: p.String() + "."}
		if p.ShadowedBy != "" {
			it.State = wire.SetupShadowed
		}
		if it.Name == "" {
			it.Name = strings.TrimSuffix(filepath.Base(p.Path), ".md")
		}
		out = append(out, it)
	}
	return out
}

// lastElem names an item that has no name of its own by its file (a
// skill's by its folder).
func lastElem(path string) string {
	if filepath.Base(path) == "SKILL.md" {
		path = filepath.Dir(path)
	}
	return filepath.Base(path)
}

// setupRules is the permission entries of dir's settings files as
// Rules.ImportedIn maps them, an item per entry with the rules it became,
// and the entries it ignores.
func (su *Setup) setupRules(dir string) []wire.SetupItem {
	im := su.svc.Rules.ImportedIn(dir)
	files := map[string]settingsjson.File{}
	for _, f := range su.svc.Rules.SettingsFiles(dir) {
		files[f.Path] = f
	}
	var out []wire.SetupItem
	at := map[[2]string]int{} // file, entry → its item: an entry may become several rules
	for _, r := range im.Rules {
		rule := fmt.Sprintf("%s %s %q", r.Effect, r.Tool, r.Pattern)
		key := [2]string{r.File, r.Entry}
		if i, ok := at[key]; ok {
			out[i].Description += ", " + rule
			continue
		}
		it := wire.SetupItem{Kind: wire.SetupRule, Name: r.Entry, Description: rule, File: r.File, Scope: r.Scope, State: wire.SetupActive}
		if !r.Applies {
			it.State, it.Detail = wire.SetupUntrusted, untrustedSentence(r.File, "allow rules apply")
			if why := settingsjson.Untrusted(su.home, files[r.File], "allow rules apply"); files[r.File].Path != "" && why != "" {
				it.Detail = why
			}
		}
		at[key] = len(out)
		out = append(out, it)
	}
	for _, ig := range im.Ignored {
		name := ig.Entry
		if name == "" {
			name = lastElem(ig.File)
		}
		state, detail := wire.SetupIgnored, ig.Reason
		if f, ok := files[ig.File]; ok && ig.Entry == "" && f.Err != nil {
			// The file itself was not read or parsed: none of its hooks
			// runs and none of its rules applies.
			state, detail = refusedOr(f.Err, wire.SetupIgnored), sentence(f.Err)+" None of its hooks runs and none of its rules applies."
		}
		out = append(out, wire.SetupItem{Kind: wire.SetupRule, Name: name, Description: ig.Effect, File: ig.File, Scope: ig.Scope, State: state, Detail: detail})
	}
	return out
}

// setupMCP is the servers of PILOT_HOME/mcp.json and dir's .mcp.json, read
// each on its own so that one broken file does not hide the other's.
// Nothing is started: a server's state is its configuration's (disabled),
// and for the project's, whether the file is trusted as it is.
func (su *Setup) setupMCP(dir string) []wire.SetupItem {
	var out []wire.SetupItem
	project := map[string]bool{}
	pf, raw, perr := mcp.ReadProject(dir)
	if perr == nil {
		for n := range pf.Servers {
			project[n] = true
		}
	}
	add := func(path, scope string, f mcp.File, err error, state func(mcp.Server) (wire.SetupState, string)) {
		if err != nil {
			out = append(out, wire.SetupItem{Kind: wire.SetupMCP, Name: lastElem(path), File: path, Scope: scope, State: refusedOr(err, wire.SetupBroken),
				Detail: "None of its servers start: " + sentence(err)})
			return
		}
		for _, n := range slices.Sorted(maps.Keys(f.Servers)) {
			s := f.Servers[n]
			st, detail := state(s)
			if s.Disabled {
				st, detail = wire.SetupDisabled, "Turned off in Settings › MCP servers (or pilot mcp); turn it on there to start it."
			}
			out = append(out, wire.SetupItem{Kind: wire.SetupMCP, Name: n, Description: mcp.Display(s, mcp.EnvLookup), File: path, Scope: scope, State: st, Detail: detail})
		}
	}
	userPath := mcp.UserPath(su.home)
	uf, _, uerr := mcp.ReadFile(userPath)
	add(userPath, string(settingsjson.ScopePilotUser), uf, uerr, func(mcp.Server) (wire.SetupState, string) { return wire.SetupActive, "" })
	// The user's servers a project server of the same name replaces.
	for i := range out {
		if it := &out[i]; it.State == wire.SetupActive && project[it.Name] {
			it.State, it.Detail = wire.SetupShadowed, fmt.Sprintf("The project's .mcp.json has a server called %s, which is used instead.", it.Name)
		}
	}
	trusted := false
	if raw != nil {
		trusted, _ = mcp.Trusted(su.home, dir, trustfile.Hash(raw))
	}
	add(mcp.ProjectPath(dir), string(settingsjson.ScopeProject), pf, perr, func(mcp.Server) (wire.SetupState, string) {
		if trusted {
			return wire.SetupActive, ""
		}
		return wire.SetupUntrusted, untrustedSentence(mcp.ProjectPath(dir), "servers start")
	})
	return out
}

// commandScopes maps a command's source to the scope words of the other
// items.
var commandScopes = map[string]settingsjson.Scope{
	commands.SourcePilot:      settingsjson.ScopePilotProject,
	commands.SourceClaude:     settingsjson.ScopeProject,
	commands.SourceUser:       settingsjson.ScopePilotUser,
	commands.SourceUserClaude: settingsjson.ScopeUser,
}

// setupCommands is the custom commands of dir, PILOT_HOME and the user's
// ~/.claude/commands; a folder that cannot be read is listed as broken.
func (su *Setup) setupCommands(dir string) []wire.SetupItem {
	cmds, problems := commands.List(su.home, su.userHome(), dir)
	var out []wire.SetupItem
	for _, c := range cmds {
		out = append(out, wire.SetupItem{Kind: wire.SetupCommand, Name: "/" + c.Name, Description: c.Description, File: c.Path, Scope: string(commandScopes[c.Source]), State: wire.SetupActive})
	}
	for _, p := range problems {
		name := "/" + p.Name
		if p.Name == "" {
			name = "commands"
		}
		out = append(out, wire.SetupItem{Kind: wire.SetupCommand, Name: name, File: p.Path, Scope: string(commandScopes[p.Source]),
			State: refusedOr(p.Err, wire.SetupBroken), Detail: sentence(p.Err)})
	}
	return out
}
