package settingsjson

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"pilot/backend/projectroot"
)

// Script is a file of the project that a hook's command names: what the
// hook runs besides the command itself. A project's settings file is
// trusted with the content of every script its hooks name (File.TrustHash),
// so a script changed since (by a command, by anyone) voids the trust.
type Script struct {
	Rel     string // '/'-separated, relative to the folder the hooks run in
	Abs     string // the path the hook runs (for the sandbox and messages)
	Raw     []byte // its content as read (nil when missing)
	Missing bool   // named as the program to run, and not there
	// Err: it could not be read (a *projectroot.NotRead: a link out of the
	// project, not a regular file, over 1 MiB); the file's hooks cannot
	// be trusted while it stays so.
	Err error
}

// scriptFile bounds a hook's script.
var scriptFile = projectroot.Kind{Name: "a hook's script", Limit: 1 << 20, Fix: "run a smaller script that calls the rest"}

// interpreters run the file their first argument that is not an option
// names (`bash scripts/x.sh`, `node tools/check.js`).
var interpreters = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
	"node": true, "nodejs": true, "deno": true, "bun": true, "tsx": true, "ts-node": true,
	"python": true, "python2": true, "python3": true, "ruby": true, "perl": true, "php": true,
	"lua": true, "Rscript": true, "pwsh": true, "source": true, ".": true,
}

// noScript are interpreter options after which no script file follows
// (the code is inline or a module): `python -m x`, `node -e '...'`.
var noScript = map[string]bool{"-m": true, "-e": true, "--eval": true, "-p": true, "--print": true, "-r": true}

// wrappers run the command that follows them (`exec ./x.sh`, `timeout 5
// ./x.sh`, `env A=1 ./x.sh`).
var wrappers = map[string]bool{"exec": true, "command": true, "nohup": true, "env": true, "timeout": true, "nice": true, "time": true}

// scriptLike are the endings of a file an argument names that is run
// rather than read (`make -f x`, `npx tsx scripts/check.ts`).
var scriptLike = []string{".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".py", ".rb", ".pl", ".php", ".lua"}

// ScriptsOf finds the project files the hooks' commands name, relative to
// the folder run they run in: the command's program when it is a path
// (`./scripts/lint.sh`, `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`),
// an interpreter's script (`bash scripts/x.sh`, `node tools/check.js`, a
// `sh -c` string read in turn), and any other argument naming a script
// file there. Each command is read with the bash parser the gate uses;
// $CLAUDE_PROJECT_DIR and $PILOT_PROJECT_DIR are run, other expansions
// name nothing known. required reports a program or an interpreter's
// script, which counts even while it is missing.
func ScriptsOf(run string, h Hooks) (rels []string, required map[string]bool) {
	required = map[string]bool{}
	seen := map[string]bool{}
	add := func(v string, req bool) {
		rel, ok := inside(run, v)
		if !ok {
			return
		}
		if !seen[rel] {
			seen[rel] = true
			rels = append(rels, rel)
		}
		required[rel] = required[rel] || req
	}
	for _, groups := range h {
		for _, g := range groups {
			for _, hk := range g.Hooks {
				if hk.Type == "command" {
					namedIn(hk.Command, run, add, 0)
				}
			}
		}
	}
	sort.Strings(rels)
	return rels, required
}

// namedIn calls add for each path command names (see ScriptsOf).
func namedIn(command, run string, add func(v string, required bool), depth int) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return // it cannot run either
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		args := make([]string, len(c.Args))
		known := make([]bool, len(c.Args))
		for i, w := range c.Args {
			args[i], known[i] = literal(w, run)
		}
		i := skipWrappers(args, known)
		if i >= len(args) || !known[i] {
			return true
		}
		prog := args[i]
		if strings.Contains(prog, "/") {
			add(prog, true)
		}
		if interpreters[path.Base(prog)] {
			for j := i + 1; j < len(args); j++ {
				if !known[j] {
					break
				}
				a := args[j]
				if a == "-c" && depth == 0 && j+1 < len(args) && known[j+1] && isShell(prog) {
					namedIn(args[j+1], run, add, depth+1)
					break
				}
				if noScript[a] {
					break
				}
				if !strings.HasPrefix(a, "-") {
					add(a, true)
					break
				}
			}
		}
		for j := i + 1; j < len(args); j++ {
			if known[j] && !strings.HasPrefix(args[j], "-") && looksLikeScript(args[j]) {
				add(args[j], false)
			}
		}
		return true
	})
}

func isShell(prog string) bool {
	switch path.Base(prog) {
	case "sh", "bash", "zsh", "dash", "ksh":
		return true
	}
	return false
}

func looksLikeScript(a string) bool {
	for _, ext := range scriptLike {
		if strings.HasSuffix(a, ext) {
			return true
		}
	}
	return false
}

// skipWrappers is the index of the program a wrapper (exec, env,
// timeout, ...) runs, or of the first word.
func skipWrappers(args []string, known []bool) int {
	i := 0
	for i < len(args) && known[i] && wrappers[args[i]] {
		w := args[i]
		i++
		for i < len(args) && known[i] && (strings.HasPrefix(args[i], "-") || (w == "env" && strings.Contains(args[i], "="))) {
			if w == "nice" && args[i] == "-n" {
				i++
			}
			i++
		}
		if w == "timeout" && i < len(args) {
			i++ // the duration
		}
	}
	return i
}

// literal is a word's value when nothing in it is expanded at run time
// but $CLAUDE_PROJECT_DIR or $PILOT_PROJECT_DIR (the folder run).
func literal(w *syntax.Word, run string) (string, bool) {
	var b strings.Builder
	var part func(p syntax.WordPart) bool
	part = func(p syntax.WordPart) bool {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if !part(q) {
					return false
				}
			}
		case *syntax.ParamExp:
			if p.Param == nil || p.Exp != nil || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Length || p.Excl || p.Width {
				return false
			}
			if n := p.Param.Value; n != "CLAUDE_PROJECT_DIR" && n != "PILOT_PROJECT_DIR" {
				return false
			}
			b.WriteString(run)
		default:
			return false
		}
		return true
	}
	for _, p := range w.Parts {
		if !part(p) {
			return "", false
		}
	}
	return b.String(), true
}

// inside is v (relative to run, or absolute) as a clean '/'-separated
// path inside run; false for anything outside it or the folder itself.
func inside(run, v string) (string, bool) {
	if v == "" || strings.HasPrefix(v, "~") {
		return "", false
	}
	if filepath.IsAbs(v) {
		rel, err := filepath.Rel(run, filepath.Clean(v))
		if err != nil {
			return "", false
		}
		v = rel
	}
	rel := path.Clean(filepath.ToSlash(v))
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") {
		return "", false
	}
	return rel, true
}

// readScripts reads the scripts f's hooks name in the folder run
// (through its root: no link out of the project).
func readScripts(root *projectroot.Root, h Hooks) []Script {
	rels, required := ScriptsOf(root.Dir(), h)
	var out []Script
	for _, rel := range rels {
		s := Script{Rel: rel, Abs: filepath.Join(root.Dir(), filepath.FromSlash(rel))}
		if fi, _, err := root.Stat(rel); err == nil && fi.IsDir() {
			continue // a folder it works in, not a program
		}
		s.Raw, s.Err = root.ReadOwn(rel, scriptFile)
		if errors.Is(s.Err, fs.ErrNotExist) {
			if !required[rel] {
				continue
			}
			s.Raw, s.Err, s.Missing = nil, nil, true
		}
		out = append(out, s)
	}
	return out
}

// Changed lists the scripts (of a file read with LoadRun) whose content
// in the folder run is not what was read then: each hook run checks
// them again just before it runs.
func Changed(run string, scripts []Script) []string {
	if len(scripts) == 0 {
		return nil
	}
	root, err := projectroot.New(run)
	if err != nil {
		return []string{run}
	}
	defer root.Close()
	var out []string
	for _, s := range scripts {
		raw, err := root.ReadOwn(s.Rel, scriptFile)
		missing := errors.Is(err, fs.ErrNotExist)
		if missing != s.Missing || (!missing && (err != nil || string(raw) != string(s.Raw))) {
			out = append(out, s.Rel)
		}
	}
	return out
}

// Guarded are the paths of the folder run that grant or run things on the
// host, which a sandboxed command must not change (the pod binds them
// read-only): the .claude and .pilot folders, and every script the hooks
// of files (the user's included) name there.
func Guarded(run string, files []File) []string {
	out := []string{filepath.Join(run, ".claude"), filepath.Join(run, ".pilot")}
	for _, f := range files {
		for _, s := range f.Scripts {
			if !s.Missing && s.Err == nil {
				out = append(out, s.Abs)
			}
		}
	}
	return out
}
