package service

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/mcp"
	"pilot/backend/wire"
)

// writeTree writes files (path → content) under t's folders.
func writeTree(t *testing.T, files map[string]string) {
	t.Helper()
	for path, body := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if body == "" { // a folder
			continue
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// setupStates is each item of s as "kind name scope" → state and detail.
func setupStates(s wire.Setup) map[string]wire.SetupItem {
	out := map[string]wire.SetupItem{}
	for _, it := range s.Items {
		out[string(it.Kind)+" "+it.Name+" "+it.Scope] = it
	}
	return out
}

// Setup lists every kind in every state it can have, from real files: the
// user's hooks run, a bad matcher and an unknown event are ignored with
// the hooks package's sentence, a project's hook and allow rule wait for
// trust; a skill in use, one shadowed by the user's of the same name, a
// folder without SKILL.md broken; a settings file that is not JSON is an
// ignored entry; MCP servers trusted, shadowed, disabled and untrusted;
// commands of the project and of PILOT_HOME. Trusting the project
// (TrustProjectIn, as pilot trust does) turns the untrusted ones active.
func TestSetupListsEveryKindAndState(t *testing.T) {
	t.Parallel()
	home, userHome, dir := t.TempDir(), t.TempDir(), t.TempDir()
	w := openAt(t, home, map[string]string{"HOME": userHome})
	t.Cleanup(w.Close)
	skill := func(name string) string {
		return "---\nname: " + name + "\ndescription: Reviews a change.\n---\nLook at the diff.\n"
	}
	writeTree(t, map[string]string{
		filepath.Join(userHome, ".claude", "settings.json"): `{"permissions": {"allow": ["Bash(ls)"], "deny": ["Frob(x)"]},
			"hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]}],
			"PreToolUse": [{"matcher": "(", "hooks": [{"type": "command", "command": "bad.sh"}]}],
			"Bogus": [{"hooks": [{"type": "command", "command": "never.sh"}]}]}}`,
		filepath.Join(dir, ".claude", "settings.json"):                `{"permissions": {"allow": ["Bash(make:*)"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}`,
		filepath.Join(dir, ".claude", "settings.local.json"):          `{not json`,
		filepath.Join(home, "skills", "review", "SKILL.md"):           skill("review"),
		filepath.Join(dir, ".claude", "skills", "review", "SKILL.md"): skill("review"),
		filepath.Join(dir, ".claude", "skills", "lint", "SKILL.md"):   skill("lint"),
		filepath.Join(dir, ".claude", "skills", "empty", "x"):         "",
		mcp.UserPath(home):                                       `{"mcpServers": {"db": {"command": "user-db"}, "docs": {"command": "docs-server"}, "off": {"command": "off-server", "disabled": true}}}`,
		filepath.Join(dir, ".mcp.json"):                          `{"mcpServers": {"db": {"command": "project-db"}}}`,
		filepath.Join(dir, ".claude", "commands", "deploy.md"):   "Deploy the app.\n",
		filepath.Join(home, "commands", "hello.md"):              "Say hello.\n",
		filepath.Join(dir, ".claude", "agents", "fixer.md"):      "---\nname: fixer\ndescription: Fixes bugs.\ntools: Read, Edit, WebSearch\n---\nFix it.\n",
		filepath.Join(userHome, ".claude", "agents", "fixer.md"): "---\nname: fixer\ndescription: The user's fixer.\ntools: Read\n---\nFix it.\n",
		filepath.Join(dir, ".claude", "agents", "reader.md"):     "---\nname: reader\ndescription: Reads.\ntools: Read, Grep\n---\nRead.\n",
		filepath.Join(dir, ".pilot", "agents", "bad.md"):         "no front matter here\n",
	})

	s := w.Setup.In(dir)
	got := setupStates(s)
	want := []struct {
		key    string
		state  wire.SetupState
		detail string
	}{
		{"hook PostToolUse user", wire.SetupActive, ""},
		{"hook Bogus user", wire.SetupIgnored, `the hook event "Bogus" is not one Pilot fires`},
		{"hook PreToolUse project", wire.SetupUntrusted, "Not trusted:"},
		{"skill review pilot-user", wire.SetupActive, ""},
		{"skill review project", wire.SetupShadowed, "has the same name (review) and wins"},
		{"skill lint project", wire.SetupActive, ""},
		{"skill empty project", wire.SetupBroken, "has no SKILL.md"},
		{"rule Bash(ls) user", wire.SetupActive, ""},
		{"rule Frob(x) user", wire.SetupIgnored, ""},
		{"rule Bash(make:*) project", wire.SetupUntrusted, "Not trusted:"},
		{"rule settings.local.json local", wire.SetupIgnored, "not valid settings JSON"},
		{"mcp db pilot-user", wire.SetupShadowed, "The project's .mcp.json has a server called db"},
		{"mcp docs pilot-user", wire.SetupActive, ""},
		{"mcp off pilot-user", wire.SetupDisabled, "Turned off"},
		{"mcp db project", wire.SetupUntrusted, "Not trusted:"},
		{"command /deploy project", wire.SetupActive, ""},
		{"command /hello pilot-user", wire.SetupActive, ""},
		{"agent fixer project", wire.SetupActive, "each change and command waits for your approval"},
		{"agent reader project", wire.SetupActive, "Read-only"},
		{"agent fixer user", wire.SetupShadowed, "has the same name (fixer) and wins"},
		{"agent bad pilot-project", wire.SetupBroken, "is not used as an agent"},
	}
	for _, c := range want {
		it, ok := got[c.key]
		if !ok {
			t.Errorf("%s: not listed; items: %+v", c.key, s.Items)
			continue
		}
		// An item in force says nothing more, but an agent, which says
		// whether its changes wait for review.
		if it.State != c.state || !strings.Contains(it.Detail, c.detail) || (c.state != wire.SetupActive || it.Kind == wire.SetupAgent) != (it.Detail != "") {
			t.Errorf("%s: state %q detail %q, want %q with %q", c.key, it.State, it.Detail, c.state, c.detail)
		}
		if it.File == "" || it.Scope == "" {
			t.Errorf("%s: no file or scope: %+v", c.key, it)
		}
	}
	// The bad matcher's group is ignored with the hooks package's sentence.
	var bad *wire.SetupItem
	for i, it := range s.Items {
		if it.Description == "bad.sh" {
			bad = &s.Items[i]
		}
	}
	if bad == nil || bad.State != wire.SetupIgnored || bad.Matcher != "(" || !strings.Contains(bad.Detail, "not a regular expression") {
		t.Errorf("the hook with a bad matcher: %+v", bad)
	}
	if g := got["agent fixer project"]; !strings.Contains(g.Detail, "Not given: WebSearch") || g.Description != "Fixes bugs." {
		t.Errorf("the project's fixer: %+v", g)
	}
	if g := got["hook PreToolUse project"]; g.Description != "./guard.sh" || g.Matcher != "Bash" || g.File != filepath.Join(dir, ".claude", "settings.json") {
		t.Errorf("project hook: %+v", g)
	}
	if g := got["rule Bash(make:*) project"]; g.Description != `allow run_bash "make", allow run_bash "make *"` {
		t.Errorf("an entry is one item with the rules it became: %+v", g)
	}
	if n := strings.Count(fmtItems(s), "Bash(make:*)"); n != 1 {
		t.Errorf("the entry Bash(make:*) is listed %d times", n)
	}
	if !s.NeedsTrust {
		t.Error("NeedsTrust is false with an untrusted .mcp.json and settings file")
	}
	names := map[string]string{}
	for _, n := range s.ToolNames {
		names[n.Pilot] = n.Claude
	}
	if names["run_bash"] != "Bash" || names["write_file"] != "Write" || names["patch_file"] != "Edit" {
		t.Errorf("tool names %v", s.ToolNames)
	}

	p, err := w.MCP.TrustPromptIn(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Trust.ProjectIn(dir, p.Token); err != nil {
		t.Fatal(err)
	}
	s = w.Setup.In(dir)
	got = setupStates(s)
	for _, key := range []string{"hook PreToolUse project", "rule Bash(make:*) project", "mcp db project"} {
		detail := ""
		if key == "hook PreToolUse project" {
			detail = "It runs the project's guard.sh, trusted with the file as it is now (a change asks again)."
		}
		if it := got[key]; it.State != wire.SetupActive || it.Detail != detail {
			t.Errorf("after trust, %s: %+v", key, it)
		}
	}
	if s.NeedsTrust {
		t.Error("NeedsTrust after the project was trusted")
	}
}

// A project .mcp.json that is not JSON is one broken item, and the user's
// servers are still listed.
func TestSetupBrokenMCPFileKeepsTheOthers(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), t.TempDir()
	w := openAt(t, home, map[string]string{"HOME": t.TempDir()})
	t.Cleanup(w.Close)
	writeTree(t, map[string]string{
		mcp.UserPath(home):              `{"mcpServers": {"docs": {"command": "docs-server"}}}`,
		filepath.Join(dir, ".mcp.json"): `{"mcpServers": `,
	})
	got := setupStates(w.Setup.In(dir))
	if it := got["mcp docs pilot-user"]; it.State != wire.SetupActive {
		t.Errorf("user server: %+v", it)
	}
	if it := got["mcp .mcp.json project"]; it.State != wire.SetupBroken || !strings.Contains(it.Detail, "not valid JSON") {
		t.Errorf("broken .mcp.json: %+v", it)
	}
}

// fmtItems is the items' names, one a line.
func fmtItems(s wire.Setup) string {
	var b strings.Builder
	for _, it := range s.Items {
		b.WriteString(it.Name + "\n")
	}
	return b.String()
}

// The instruction files in Settings › Setup: each level with its scope,
// state and size in tokens (estimated), a nested file with when it is
// given, a rule with paths: with the files it is given for, an import
// refused, a standard place missing, a file cut.
func TestSetupListsInstructionFiles(t *testing.T) {
	t.Parallel()
	home, userHome, dir := t.TempDir(), t.TempDir(), t.TempDir()
	w := openAt(t, home, map[string]string{"HOME": userHome})
	t.Cleanup(w.Close)
	writeTree(t, map[string]string{
		filepath.Join(userHome, ".claude", "CLAUDE.md"):  "Answer in French.",
		filepath.Join(dir, "AGENTS.md"):                  strings.Repeat("a", 400) + "\n@../outside.md\n",
		filepath.Join(dir, "CLAUDE.md"):                  "@AGENTS.md\n",
		filepath.Join(dir, "CLAUDE.local.md"):            strings.Repeat("l", 40<<10),
		filepath.Join(dir, "sub", "AGENTS.md"):           "Tabs under sub.",
		filepath.Join(dir, ".claude", "rules", "api.md"): "---\npaths:\n  - \"src/api/**/*.ts\"\n---\nValidate inputs.",
	})
	got := setupStates(w.Setup.In(dir))
	for _, c := range []struct {
		key    string
		state  wire.SetupState
		tokens int
		text   string // in the description or the detail
	}{
		{"memory ~/.claude/CLAUDE.md user", wire.SetupActive, 5, "system prompt of every turn"},
		{"memory ~/.codex/AGENTS.md user", wire.SetupMissing, 0, "Not there"},
		{"memory AGENTS.md project", wire.SetupActive, 104, "project level"},
		{"memory ../outside.md project", wire.SetupRefused, 0, "outside the project folder"},
		{"memory CLAUDE.md project", wire.SetupShadowed, 0, "only imports AGENTS.md"},
		{"memory progress.md project", wire.SetupMissing, 0, "Not there"},
		{"memory CLAUDE.local.md local", wire.SetupCut, 8 << 10, "first 32 KiB"},
		{"memory sub/AGENTS.md project", wire.SetupActive, 4, "first read or change of a file under sub/"},
		{"memory .claude/rules/api.md project", wire.SetupActive, 4, "a rule for files matching src/api/**/*.ts: given to the model with the first read or change of such a file"},
	} {
		it, ok := got[c.key]
		if !ok || it.State != c.state || it.Tokens != c.tokens || !strings.Contains(it.Description+" "+it.Detail, c.text) {
			t.Errorf("%s: %+v (found %v), want %s, %d tokens, %q", c.key, it, ok, c.state, c.tokens, c.text)
		}
	}
}
