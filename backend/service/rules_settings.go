package service

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"pilot/backend/permission"
	"pilot/backend/rules"
	"pilot/backend/settingsjson"
	"pilot/backend/settingsrules"
	"pilot/backend/wire"
)

// userHome is the OS home folder whose ~/.claude/settings.json is read:
// HOME from the face's environment ("" reads no such file).
func (c *core) userHome() string {
	if c.getenv == nil {
		return ""
	}
	return c.getenv("HOME")
}

// SettingsFiles reads the settings files of the project folder dir:
// ~/.claude/settings.json, PILOT_HOME/settings.json and the project's
// .claude/settings.json, .claude/settings.local.json and
// .pilot/settings.json.
func (ru *Rules) SettingsFiles(dir string) []settingsjson.File {
	return settingsjson.Load(ru.userHome(), ru.home, dir)
}

// SettingsTrusted reports whether the settings file f may carry
// authority: the user's own files always; a project's file only while
// the user has trusted its content as it is now (the trust prompt, or
// pilot trust). Hooks of a file run, and its allow rules apply, only when
// it says so.
func (ru *Rules) SettingsTrusted(f settingsjson.File) bool {
	return settingsjson.Trusted(ru.home, f)
}

// settingsRules maps the permission entries of dir's settings files.
func (ru *Rules) settingsRules(dir string) settingsrules.Set {
	return settingsrules.Map(ru.SettingsFiles(dir), dir, ru.userHome(), rules.Known(ru.home, dir), ru.SettingsTrusted)
}

// inForce is agent.Deps.SettingsRules.
func (ru *Rules) inForce(dir string) []permission.Rule {
	return ru.settingsRules(dir).InForce()
}

// networkNamed is mcp.Options.Private: whether an allow network rule of
// the project in dir (stored, or in force from its settings files) names
// host exactly, which alone lets a server's sign-in reach a private
// address there.
func (ru *Rules) networkNamed(dir, host string) bool {
	rs := ru.inForce(dir)
	ctx := context.Background()
	if p, err := ru.store.Projects.ByPath(ctx, dir); err == nil {
		stored, _ := ru.store.Rules.List(ctx, p.ID)
		for _, r := range stored {
			rs = append(rs, permission.Rule{Tool: r.Tool, Pattern: r.Pattern, Effect: permission.Effect(r.Effect)})
		}
	}
	return slices.ContainsFunc(rs, func(r permission.Rule) bool { return permission.NamesHostFor(permission.NetworkTool, r, host) })
}

// Imported lists the permission rules the project's settings files
// bring (Claude Code's and Pilot's settings.json), each with its entry,
// file and scope and whether it applies, and the entries Pilot ignores
// with the reason.
func (ru *Rules) Imported(ctx context.Context, projectID int64) (wire.ImportedRules, error) {
	p, err := ru.project(ctx, projectID)
	if err != nil {
		return wire.ImportedRules{}, err
	}
	return ru.ImportedIn(p.Path), nil
}

// ImportedIn is Imported for the folder dir.
func (ru *Rules) ImportedIn(dir string) wire.ImportedRules {
	s := ru.settingsRules(dir)
	out := wire.ImportedRules{Rules: []wire.ImportedRule{}, Ignored: []wire.IgnoredRule{}}
	for _, r := range s.Rules {
		v := wire.ImportedRule{Tool: r.Tool, Pattern: r.Pattern, Effect: wire.RuleEffect(r.Effect), Entry: r.Entry, File: r.File, Scope: string(r.Scope), Applies: r.Applies}
		if !r.Applies {
			v.NotApplied = fmt.Sprintf("Not applied: %s is the project's, and its allow rules apply only once you trust it as it is now (the trust prompt, or pilot trust).", r.File)
		}
		out.Rules = append(out.Rules, v)
	}
	for _, ig := range s.Ignored {
		out.Ignored = append(out.Ignored, wire.IgnoredRule{Entry: ig.Entry, Effect: ig.Effect, File: ig.File, Scope: string(ig.Scope), Reason: ig.Reason})
	}
	return out
}

// trustSections are the trust prompt's sections for dir's
// project settings files that are not trusted as they are: the allow
// rules each would apply, and the hooks each would run. A file with
// neither needs no trust; one that cannot be read is not offered.
func (ru *Rules) trustSections(dir string) []wire.TrustSection {
	out := []wire.TrustSection{}
	files := ru.SettingsFiles(dir)
	mapped := settingsrules.Map(files, dir, ru.userHome(), rules.Known(ru.home, dir), nil)
	for _, f := range files {
		if !f.Scope.FromProject() || f.Err != nil || ru.SettingsTrusted(f) || refusedScript(f) != "" {
			continue
		}
		changed := settingsjson.WasTrusted(ru.home, f)
		section := func(kind wire.TrustKind, items []string) {
			if len(items) > 0 {
				out = append(out, wire.TrustSection{Kind: kind, Path: f.Path, Scope: string(f.Scope), Hash: f.TrustHash(), Items: items, Changed: changed})
			}
		}
		section(wire.TrustRules, allowItems(mapped, f.Path))
		section(wire.TrustHooks, append(hookItems(f.Hooks), scriptItems(f, ru.home)...))
	}
	return out
}

// allowItems are the allow entries of the file at path, each with the
// Pilot rules it becomes.
func allowItems(s settingsrules.Set, path string) []string {
	var order []string
	made := map[string][]string{}
	for _, r := range s.Rules {
		if r.File != path || r.Effect != permission.Allow {
			continue
		}
		if _, ok := made[r.Entry]; !ok {
			order = append(order, r.Entry)
		}
		made[r.Entry] = append(made[r.Entry], r.Rule.String())
	}
	items := make([]string, len(order))
	for i, e := range order {
		items[i] = e + " → " + strings.Join(made[e], ", ")
	}
	return items
}

// hookItems are a file's hooks, one line each: the event, the matcher
// and the exact command.
func hookItems(h settingsjson.Hooks) []string {
	events := make([]string, 0, len(h))
	for e := range h {
		events = append(events, e)
	}
	sort.Strings(events)
	var items []string
	for _, e := range events {
		for _, g := range h[e] {
			for _, hk := range g.Hooks {
				what := hk.Command
				if hk.Type != "command" {
					what = hk.Type + " hook"
				}
				on := ""
				if g.Matcher != "" {
					on = " [" + g.Matcher + "]"
				}
				items = append(items, e+on+": "+what)
			}
		}
	}
	return items
}
