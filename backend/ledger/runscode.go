package ledger

import (
	"io/fs"
	"path"
	"slices"
	"strings"
)

// RunsCode says why a file (or a .git folder: folder) that a command
// created or modified can run code, in a few words, or "" when it cannot:
// the one place this is decided, for the card's mark, pilot -p's lines,
// pilot sessions changes, the Changes view and the model's result. A
// deleted file runs nothing. The rules, first match wins:
//
//   - a .git folder made: git runs the hooks and the commands its config
//     names wherever git is used in that folder, Pilot's own git and the
//     user's included;
//   - in a .git folder (at any depth): hooks (hooks/*, and those of its
//     modules and worktrees; not git init's *.sample, which git never
//     runs under that name), config and config.worktree (core.hooksPath,
//     filters, diff and merge drivers, fsmonitor, pager, editor),
//     info/attributes (which of those filters and drivers run on which
//     files); nothing else in a .git folder, whatever its mode (git runs
//     hooks by their names only); a .git file (it points git at another
//     git folder, whose hooks and config then apply here);
//   - .claude/ and .pilot/ at any depth: settings (hooks run commands,
//     permissions grant tools), hooks' scripts, agents, skills (they
//     bundle scripts), commands (Claude Code runs their !`command` lines);
//     a folder opened in Claude Code or Pilot is the project whose
//     .claude/ counts, so a nested one counts too;
//   - .mcp.json, .vscode/mcp.json, .cursor/mcp.json: MCP servers, whose
//     commands start when the folder is opened (once trusted);
//   - .envrc: direnv runs it when a shell enters the folder (once allowed);
//   - .vscode/tasks.json (a task can run when the folder is opened),
//     .vscode/settings.json (names programs the editor and its extensions
//     run), .vscode/launch.json (runs when the user debugs);
//     .devcontainer/devcontainer.json and .devcontainer.json (their
//     commands run when the folder is opened in a container);
//   - .nvim.lua, .nvimrc, .exrc (Neovim and Vim with 'exrc' run them when
//     the folder is opened), .dir-locals.el (Emacs evaluates it when a
//     file below is opened, asking for forms it does not know);
//   - node_modules/.bin/* at any depth: npm scripts and npx run what is
//     there before the system's programs;
//   - .husky/* (git hooks once core.hooksPath points there, as husky
//     sets it), .pre-commit-config.yaml, lefthook.yml, .lefthook.yml
//     (commands their installed hooks run at each commit);
//   - .yarnrc.yml, .yarnrc (yarnPath: the program every yarn command in
//     the folder runs), .npmrc (script-shell, node-options), .pnpmfile.cjs
//     (run by pnpm install);
//   - a .pth file in a site-packages folder: Python runs its import lines
//     at every start of that environment;
//   - .github/workflows/*, .gitlab-ci.yml: run in CI, with the
//     repository's secrets, once pushed;
//   - an executable bit: a file made with one, given one, or changed while
//     it has one (a symbolic link's bits mean nothing and are not looked
//     at).
//
// Left out on purpose: build and package files (Makefile, package.json's
// scripts, setup.py, build.rs, ...) and source files run code only when
// the user builds or runs the project, which every source file does.
func RunsCode(rel string, op Op, before, after fs.FileMode, folder bool) string {
	if op == Deleted {
		return ""
	}
	names := strings.Split(rel, "/")
	base := names[len(names)-1]
	if folder {
		if base == ".git" {
			return "a new git repository: git runs its hooks and config here"
		}
		return ""
	}
	if i := slices.Index(names[:len(names)-1], ".git"); i >= 0 {
		return inGit(names[i+1:]) // git's own: no other rule, the executable bit included, applies
	}
	if base == ".git" {
		return "a .git file: it points git at another git folder, whose hooks and config apply here"
	}
	for _, r := range runsCodeRules {
		if r.match(names) {
			return r.why
		}
	}
	if after&fs.ModeSymlink == 0 && after&0o111 != 0 {
		switch {
		case op == Created:
			return "executable"
		case before&0o111 == 0:
			return "made executable"
		}
		return "executable, changed"
	}
	return ""
}

// inGit is why a file in a .git folder runs code (names: its path below
// that folder).
func inGit(names []string) string {
	switch names[0] {
	case "objects", "refs", "logs":
		return ""
	}
	if slices.Contains(names[:len(names)-1], "hooks") && path.Ext(names[len(names)-1]) != ".sample" {
		return "a git hook"
	}
	switch base := names[len(names)-1]; {
	case base == "config", base == "config.worktree":
		return "git config: it can name commands git runs"
	case len(names) == 2 && names[0] == "info" && base == "attributes":
		return "git attributes: they choose the filters git runs"
	}
	return ""
}

// runsCodeRule is one entry of RunsCode's list: match gets the path's
// names.
type runsCodeRule struct {
	why   string
	match func(names []string) bool
}

var runsCodeRules = []runsCodeRule{
	{"Claude Code or Pilot settings, hooks, agents, skills or commands", func(n []string) bool {
		return slices.Contains(n[:len(n)-1], ".claude") || slices.Contains(n[:len(n)-1], ".pilot")
	}},
	{"MCP servers: their commands start when the folder is opened", func(n []string) bool {
		return isName(n, ".mcp.json") || endsWith(n, ".vscode", "mcp.json") || endsWith(n, ".cursor", "mcp.json")
	}},
	{"direnv runs it when a shell enters the folder", func(n []string) bool { return isName(n, ".envrc") }},
	{"VS Code tasks, settings or launch configurations", func(n []string) bool {
		return endsWith(n, ".vscode", "tasks.json") || endsWith(n, ".vscode", "settings.json") || endsWith(n, ".vscode", "launch.json")
	}},
	{"a dev container: its commands run when the folder is opened in it", func(n []string) bool {
		return endsWith(n, ".devcontainer", "devcontainer.json") || isName(n, ".devcontainer.json")
	}},
	{"the editor runs it when the folder is opened", func(n []string) bool {
		return isName(n, ".nvim.lua") || isName(n, ".nvimrc") || isName(n, ".exrc") || isName(n, ".dir-locals.el")
	}},
	{"an npm program: npm scripts and npx run it", func(n []string) bool {
		return len(n) >= 3 && n[len(n)-3] == "node_modules" && n[len(n)-2] == ".bin"
	}},
	{"git hooks' configuration: run at each commit", func(n []string) bool {
		return slices.Contains(n[:len(n)-1], ".husky") || isName(n, ".pre-commit-config.yaml") || isName(n, "lefthook.yml") || isName(n, ".lefthook.yml")
	}},
	{"package manager configuration: it can name the program yarn, npm or pnpm runs", func(n []string) bool {
		return isName(n, ".yarnrc.yml") || isName(n, ".yarnrc") || isName(n, ".npmrc") || isName(n, ".pnpmfile.cjs")
	}},
	{"Python runs its import lines at every start", func(n []string) bool {
		return len(n) >= 2 && n[len(n)-2] == "site-packages" && path.Ext(n[len(n)-1]) == ".pth"
	}},
	{"CI runs it with the repository's secrets once pushed", func(n []string) bool {
		return (len(n) >= 3 && n[len(n)-3] == ".github" && n[len(n)-2] == "workflows") || isName(n, ".gitlab-ci.yml")
	}},
}

func isName(names []string, name string) bool { return names[len(names)-1] == name }

func endsWith(names []string, dir, name string) bool {
	return len(names) >= 2 && names[len(names)-2] == dir && names[len(names)-1] == name
}
