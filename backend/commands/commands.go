// Package commands finds custom slash commands, Markdown prompt files in
// the project's .pilot/commands/ and .claude/commands/ (Claude Code's
// folder), in PILOT_HOME/commands/ and in ~/.claude/commands/ (the user's
// Claude Code commands), and expands "/name args" into the
// prompt they hold: $ARGUMENTS is everything after the name, $1 ... $9 the
// arguments one by one (quotes group words).
//
// A file a/b.md is the command "a:b". An optional front matter between
// "---" lines may set description and argument-hint; without one, the
// description is the file's first line of text.
//
// The project's files are read through the project root (backend/sandbox:
// no link out of the project, regular files only, never waiting, at most
// 256 KiB); the user's are theirs, read as they are but regular and
// bounded too. A file not read is a Problem with a sentence saying what to
// do, and /name of it says so instead of running.
package commands

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"pilot/backend/projectroot"
)

// Sources, in the order a name is looked up.
const (
	SourcePilot  = "project"        // .pilot/commands
	SourceClaude = "project-claude" // .claude/commands
	SourceUser   = "user"           // PILOT_HOME/commands
	// SourceUserClaude is ~/.claude/commands.
	SourceUserClaude = "user-claude"
)

// kind bounds a command file: a bigger one is not read, and listed as a
// Problem.
var kind = projectroot.Kind{Name: "a command file", Limit: 256 << 10, Fix: "shorten it"}

// Limits of one folder of commands: how deep subfolders are read, and how
// many files at most.
const (
	maxDepth = 8
	maxFiles = 1000
)

// Command is one slash command.
type Command struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint"`
	Source       string `json:"source"`
	Path         string `json:"path"`
	Body         string `json:"-"`
}

// Problem is a command file (or folder) that is not used, and why.
type Problem struct {
	Name   string // the command it would be ("" for a folder)
	Path   string // absolute
	Source string
	// Err says why in a sentence: a *projectroot.NotRead for a file Pilot did
	// not read (a link out of the project, a FIFO, too big).
	Err error
}

// ErrUnknown is matched by the error of a /name that names no command.
var ErrUnknown = errors.New("commands: unknown command")

// Dirs are the folders searched, first wins: the project's, then
// PILOT_HOME's (home), then the user's Claude Code folder (userHome is the
// OS home; "" leaves it out).
func Dirs(home, userHome, project string) [][2]string {
	var out [][2]string
	if project != "" {
		out = append(out, [2]string{filepath.Join(project, ".pilot", "commands"), SourcePilot},
			[2]string{filepath.Join(project, ".claude", "commands"), SourceClaude})
	}
	if home != "" {
		out = append(out, [2]string{filepath.Join(home, "commands"), SourceUser})
	}
	if userHome != "" {
		out = append(out, [2]string{filepath.Join(userHome, ".claude", "commands"), SourceUserClaude})
	}
	return out
}

// List finds every command, sorted by name; a name found in several
// folders is the first folder's. The project's files are read through
// the project root (no link out of it, regular files only, bounded); the
// user's as they are, regular files only and bounded. Problems are the
// files that could not be used, a name's first file included (its name
// is then no command).
func List(home, userHome, project string) ([]Command, []Problem) {
	var root *projectroot.Root
	if project != "" {
		if r, err := projectroot.New(project); err == nil {
			root = r
			defer r.Close()
		}
	}
	seen := map[string]bool{}
	var out []Command
	var problems []Problem
	for _, d := range Dirs(home, userHome, project) {
		f := folder{dir: d[0], source: d[1]}
		if d[1] == SourcePilot || d[1] == SourceClaude {
			if root == nil {
				continue
			}
			f.root, f.rel = root, path.Join(filepath.Base(filepath.Dir(d[0])), "commands")
		}
		f.walk("", 0)
		for _, c := range f.cmds {
			if !seen[c.Name] {
				seen[c.Name] = true
				out = append(out, c)
			}
		}
		for _, p := range f.problems {
			if p.Name == "" || !seen[p.Name] {
				seen[p.Name] = p.Name != ""
				problems = append(problems, p)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems
}

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]*$`)

// folder is one folder of commands being read: the project's through its
// root (rel inside it), or the user's at dir.
type folder struct {
	dir, source string
	root        *projectroot.Root
	rel         string
	cmds        []Command
	problems    []Problem
	files       int
}

// walk reads the folder sub ('/'-separated, "" for the folder itself) and
// the real folders below it (a link to a folder is not followed).
func (f *folder) walk(sub string, depth int) {
	ents, err := f.list(sub)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) || sub != "" {
			f.problems = append(f.problems, Problem{Path: f.abs(sub), Source: f.source, Err: err})
		}
		return
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for _, e := range ents {
		rel := path.Join(sub, e.Name())
		if e.IsDir() {
			if depth < maxDepth {
				f.walk(rel, depth+1)
			}
			continue
		}
		if !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		name := strings.ReplaceAll(strings.TrimSuffix(rel, ".md"), "/", ":")
		if !validName.MatchString(name) {
			continue
		}
		if f.files++; f.files > maxFiles {
			f.problems = append(f.problems, Problem{Name: name, Path: f.abs(rel), Source: f.source,
				Err: fmt.Errorf("%s was not read: the folder has more than %d command files", f.abs(rel), maxFiles)})
			continue
		}
		b, err := f.read(rel)
		if err != nil {
			f.problems = append(f.problems, Problem{Name: name, Path: f.abs(rel), Source: f.source, Err: err})
			continue
		}
		c := parse(string(b))
		c.Name, c.Source, c.Path = name, f.source, f.abs(rel)
		f.cmds = append(f.cmds, c)
	}
}

func (f *folder) abs(sub string) string { return filepath.Join(f.dir, filepath.FromSlash(sub)) }

func (f *folder) list(sub string) ([]fs.DirEntry, error) {
	if f.root != nil {
		return f.root.ListOwn(path.Join(f.rel, sub))
	}
	ents, err := os.ReadDir(f.abs(sub))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("the folder %s could not be read (%v): check its permissions", f.abs(sub), err)
	}
	return ents, err
}

func (f *folder) read(sub string) ([]byte, error) {
	if f.root != nil {
		return f.root.ReadOwn(path.Join(f.rel, sub), kind)
	}
	return projectroot.ReadUserFile(f.abs(sub), kind)
}

// parse reads the front matter and the body.
func parse(text string) Command {
	var c Command
	text = strings.TrimPrefix(strings.ReplaceAll(text, "\r\n", "\n"), "\ufeff")
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		if fm, body, ok := strings.Cut(rest, "\n---"); ok {
			for _, line := range strings.Split(fm, "\n") {
				k, v, ok := strings.Cut(line, ":")
				if !ok {
					continue
				}
				v = strings.Trim(strings.TrimSpace(v), `"'`)
				switch strings.TrimSpace(k) {
				case "description":
					c.Description = v
				case "argument-hint":
					c.ArgumentHint = v
				}
			}
			text = strings.TrimPrefix(body, "\n")
			if i := strings.IndexByte(text, '\n'); i >= 0 && strings.TrimSpace(text[:i]) == "" {
				text = text[i+1:]
			}
		}
	}
	c.Body = text
	if c.Description == "" {
		sc := bufio.NewScanner(strings.NewReader(text))
		for sc.Scan() {
			if l := strings.TrimSpace(strings.TrimLeft(sc.Text(), "# ")); l != "" {
				c.Description = l
				break
			}
		}
	}
	if len(c.Description) > 120 {
		c.Description = c.Description[:117] + "..."
	}
	return c
}

// Split reads "/name rest" into the name and the arguments; ok is false
// for text that is not a slash command.
func Split(text string) (name, args string, ok bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "/") || strings.HasPrefix(t, "//") {
		return "", "", false
	}
	name, args, _ = strings.Cut(t[1:], " ")
	if !validName.MatchString(name) {
		return "", "", false
	}
	return name, strings.TrimSpace(args), true
}

// Find returns the command called name.
func Find(home, userHome, project, name string) (Command, error) {
	cmds, problems := List(home, userHome, project)
	for _, c := range cmds {
		if c.Name == name {
			return c, nil
		}
	}
	for _, p := range problems {
		if p.Name == name {
			return Command{}, fmt.Errorf("/%s was not run: %w", name, p.Err)
		}
	}
	if c, ok := builtins[name]; ok {
		return c, nil // after the user's own: a command of theirs of that name wins
	}
	return Command{}, fmt.Errorf("%w: /%s (commands are Markdown files in .pilot/commands/, .claude/commands/, %s or ~/.claude/commands/)", ErrUnknown, name, filepath.Join(home, "commands"))
}

//go:embed init.md
var initPrompt string

//go:embed remember.md
var rememberPrompt string

//go:embed remember-user.md
var rememberUserPrompt string

// SourceBuiltin is a command Pilot has built in.
const SourceBuiltin = "builtin"

// builtins are the commands Pilot expands itself, looked up after the
// user's own (the window's picker lists them from its own table, with
// /compact and /new, which the window runs itself).
var builtins = map[string]Command{
	"init":          {Name: "init", Description: "Write a first AGENTS.md for this project (proposed for your review)", Source: SourceBuiltin, Body: initPrompt},
	"remember":      {Name: "remember", Description: "Add a line to this project's AGENTS.md (proposed for your review)", ArgumentHint: "what to remember", Source: SourceBuiltin, Body: rememberPrompt},
	"remember-user": {Name: "remember-user", Description: "Add a line to your own instructions for every project, ~/.claude/CLAUDE.md (proposed for your review)", ArgumentHint: "what to remember", Source: SourceBuiltin, Body: rememberUserPrompt},
}

// Builtins are the built-in commands, by name.
func Builtins() []Command {
	out := make([]Command, 0, len(builtins))
	for _, c := range builtins {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ErrNoArguments is the error of a built-in command that needs arguments
// given none.
var ErrNoArguments = errors.New("this command needs arguments")

// Expand fills a command's body with its arguments: $ARGUMENTS, then
// $1 ... $9 (missing ones become empty).
func Expand(body, args string) string {
	words := Words(args)
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if body[i] != '$' {
			b.WriteByte(body[i])
			continue
		}
		if strings.HasPrefix(body[i:], "$ARGUMENTS") {
			b.WriteString(args)
			i += len("$ARGUMENTS") - 1
			continue
		}
		if i+1 < len(body) && body[i+1] >= '1' && body[i+1] <= '9' && (i+2 >= len(body) || body[i+2] < '0' || body[i+2] > '9') {
			if n := int(body[i+1] - '1'); n < len(words) {
				b.WriteString(words[n])
			}
			i++
			continue
		}
		b.WriteByte('$')
	}
	return b.String()
}

// Words splits arguments at spaces; "double" or 'single' quotes group.
func Words(s string) []string {
	var out []string
	var cur strings.Builder
	in, quote, any := false, byte(0), false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0 && ch == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(ch)
		case ch == '"' || ch == '\'':
			quote, in, any = ch, true, true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(ch)
			in, any = true, true
		}
	}
	if in || (any && cur.Len() > 0) {
		out = append(out, cur.String())
	}
	return out
}

// ExpandText expands text when it is "/name args" naming a custom
// command; other text comes back unchanged with ok false.
func ExpandText(home, userHome, project, text string) (string, bool, error) {
	name, args, ok := Split(text)
	if !ok {
		return text, false, nil
	}
	c, err := Find(home, userHome, project, name)
	if err != nil {
		return text, false, err
	}
	if c.Source == SourceBuiltin && c.ArgumentHint != "" && args == "" {
		return text, false, fmt.Errorf("%w: /%s was not run: say %s after it (/%s TEXT)", ErrNoArguments, name, c.ArgumentHint, name)
	}
	return Expand(c.Body, args), true, nil
}

// PromptSource gets an MCP server's prompt (an *mcp.Hub).
type PromptSource interface {
	GetPrompt(ctx context.Context, name string, words []string) (string, error)
}

// ExpandPrompt expands text when it is "/name args": an MCP prompt
// (/mcp__server__prompt) through mcp, else a custom command. Other text
// comes back unchanged with ok false; an unknown name is an error.
func ExpandPrompt(ctx context.Context, home, userHome, project, text string, mcp PromptSource) (string, bool, error) {
	name, args, ok := Split(text)
	if !ok {
		return text, false, nil
	}
	if strings.HasPrefix(name, "mcp__") && mcp != nil {
		out, err := mcp.GetPrompt(ctx, name, Words(args))
		if err != nil {
			return text, false, err
		}
		return out, true, nil
	}
	return ExpandText(home, userHome, project, text)
}
