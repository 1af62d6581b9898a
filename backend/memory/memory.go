// Package memory finds the instruction files ("memory files") Claude Code
// and Codex read, at every level, and reads them for the model:
//
//	user     ~/.claude/CLAUDE.md, ~/.codex/AGENTS.md
//	project  AGENTS.md, CLAUDE.md, progress.md at the project's root
//	local    CLAUDE.local.md (personal, not committed)
//	rule     .claude/rules/*.md, sorted by name, front matter left out; one
//	         whose front matter names paths: (PathRules) is not in the
//	         system prompt: the agent brings it in when it first reads or
//	         changes a file matching one of its globs
//	nested   AGENTS.md and CLAUDE.md of a folder below the root (Nested):
//	         not in the system prompt; the agent brings them in when it
//	         first reads or changes a file below them
//	import   a file named by `@path` in any of them
//
// Load gives the system prompt's files in that order, the most general
// first: where two disagree, the later (more specific) one wins, as in
// Claude Code. A project's file is read through the project root (no link
// out of the project, regular files only, bounded); the user's own files
// follow their links as the user made them.
//
// An import (`@path/to/file`, relative to the importing file, `~/` for the
// home folder, or absolute; not inside a code span or a fenced block) is
// followed only into the project (through its root) and the user's own
// folders ~/.claude and ~/.codex (each opened as an *os.Root, so a link
// leading out is refused too), at most MaxDepth hops from the file that
// started it; a cycle is refused with a sentence. Every file is cut at
// MaxFileBytes, and the system prompt's files together at Budget, imports
// included.
//
// States: in force (its text goes to the model), cut (too big: only its
// start does), shadowed (its text adds nothing: the same text as a file
// already in force, such as CLAUDE.md linked to AGENTS.md or a second
// import of one file, or a file that only imports files already in force),
// not found (a standard place with no file, an empty file, an import of a
// missing file) and refused (not read: a link out, not a regular file, an
// import outside the allowed folders, a cycle, too deep).
//
// The files carry no authority: they are text for the model, never rules
// or grants; what runs and what is approved is the gate's alone.
package memory

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"pilot/backend/projectroot"
)

// Limits.
const (
	MaxFileBytes = 32 << 10  // one file: the rest is cut
	Budget       = 128 << 10 // the system prompt's files together, imports included
	NestedBudget = 32 << 10  // one folder's nested files together, imports included
	MaxDepth     = 5         // import hops from the file that started them (Claude Code's)
)

// Level is where an instruction file comes from.
type Level string

// Levels, from the most general.
const (
	LevelUser    Level = "user"
	LevelProject Level = "project"
	LevelLocal   Level = "local"
	LevelRule    Level = "rule"
	LevelNested  Level = "nested"
	LevelImport  Level = "import"
)

// State is what became of an instruction file.
type State string

// States.
const (
	InForce  State = "in force"
	Cut      State = "cut"
	Shadowed State = "shadowed"
	NotFound State = "not found"
	Refused  State = "refused"
)

// File is one instruction file and what became of it.
type File struct {
	Level Level
	// Name is how the user knows it: "~/.claude/CLAUDE.md", "AGENTS.md",
	// "sub/AGENTS.md", ".claude/rules/go.md".
	Name string
	Path string // absolute, as named (links not followed)
	// Folder is a nested file's folder ("sub"), and an import's of a
	// nested file: the files it applies to are below it.
	Folder string
	// Paths are a rule's globs (its front matter's paths:, relative to the
	// project): it is given only with a file matching one (PathRules),
	// and an import of it carries them too.
	Paths []string
	State State
	Text  string // what the model is given (in force, cut: its start)
	// Why is a sentence when the file is not simply in force: what was
	// cut, what shadows it, why it was not read and what to do.
	Why string
	By  string // an import: the Name of the file that imports it
	Err error  // refused: the *projectroot.NotRead, or the import's refusal
}

// Tokens is an estimate of the file's size in tokens for the model (its
// bytes given to the model / 4).
func (f File) Tokens() int { return (len(f.Text) + 3) / 4 }

// Heading names the file for the model: where it comes from.
func (f File) Heading() string {
	switch f.Level {
	case LevelUser:
		return f.Name + " (the user's own instructions, for every project)"
	case LevelLocal:
		return f.Name + " (the user's personal instructions for this project)"
	case LevelRule:
		return f.Name + " (a rule of the project)"
	case LevelImport:
		return f.Name + " (imported by " + f.By + ")"
	case LevelNested:
		return f.Name + " (the project's instructions for files under " + f.Folder + "/)"
	}
	return f.Name + " (the project's own instructions)"
}

// Given reports whether the file's text goes to the model.
func (f File) Given() bool { return (f.State == InForce || f.State == Cut) && f.Text != "" }

// The standard places, in the system prompt's order.
var (
	userFiles    = []string{".claude/CLAUDE.md", ".codex/AGENTS.md"} // below the home folder
	projectFiles = []string{"AGENTS.md", "CLAUDE.md", "progress.md"}
	localFile    = "CLAUDE.local.md"
	rulesFolder  = ".claude/rules"
	nestedFiles  = []string{"AGENTS.md", "CLAUDE.md"}
	userFolders  = []string{".claude", ".codex"} // below the home folder: where imports may lead
)

// Load reads the instruction files of the project folder dir and of the
// user whose home folder is home ("": none), in the system prompt's order,
// the standard places not found and the files not read included.
func Load(home, dir string) []File {
	l := newLoader(home, dir, Budget)
	defer l.close()
	if home != "" {
		for _, n := range userFiles {
			abs := filepath.Join(home, n)
			l.add(File{Level: LevelUser, Name: "~/" + n, Path: abs}, loc{abs: abs}, nil)
		}
	}
	if l.root == nil {
		return l.out
	}
	for _, n := range projectFiles {
		l.addProject(LevelProject, n, "")
	}
	l.addProject(LevelLocal, localFile, "")
	l.rules()
	return l.out
}

// loc is where a file is read: in the project (rel, through the root), in
// one of the user's folders (folder, rel inside it), or the user's own
// file as named (neither).
type loc struct {
	abs     string
	rel     string // '/'-separated, inside the project or the user's folder
	project bool
	folder  string // the user's folder (~/.claude) holding it
}

// loader reads files into out, within a budget, each text once.
type loader struct {
	root   *projectroot.Root // nil: no project folder
	home   string
	budget int                 // bytes, the files together
	left   int                 // budget left
	scoped bool                // rules with paths: are read (PathRules), not the others (Load)
	seen   map[[32]byte]string // text → the Name of the file in force with it
	given  map[string]string   // Path → Name of a file the system prompt gives (Nested: it may be cut, so its text is not its file's)
	opened map[string]*os.Root // the user's folders, opened once
	out    []File
}

func newLoader(home, dir string, budget int) *loader {
	l := &loader{home: home, budget: budget, left: budget, seen: map[[32]byte]string{}, given: map[string]string{}, opened: map[string]*os.Root{}}
	if dir != "" {
		if r, err := projectroot.New(dir); err == nil {
			l.root = r
		}
	}
	return l
}

func (l *loader) close() {
	if l.root != nil {
		l.root.Close()
	}
	for _, r := range l.opened {
		if r != nil {
			r.Close()
		}
	}
}

// addProject adds the project file rel of a level.
func (l *loader) addProject(level Level, rel, folder string) {
	abs := filepath.Join(l.root.Dir(), filepath.FromSlash(rel))
	l.add(File{Level: level, Name: rel, Path: abs, Folder: folder}, loc{abs: abs, rel: rel, project: true}, nil)
}

// rules adds .claude/rules/*.md, sorted by name.
func (l *loader) rules() {
	ents, err := l.root.ListOwn(rulesFolder)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		l.out = append(l.out, File{Level: LevelRule, Name: rulesFolder, Path: filepath.Join(l.root.Dir(), rulesFolder), State: Refused, Err: err, Why: sentence(err)})
		return
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return cmp.Compare(a.Name(), b.Name()) })
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		l.addProject(LevelRule, rulesFolder+"/"+e.Name(), "")
	}
}

// add reads the file f at at and appends it, then its imports after it
// (depth first). chain is the files that imported it, outermost first.
func (l *loader) add(f File, at loc, chain []string) {
	b, more, err := l.read(at)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.State, f.Why = NotFound, "Not there: Pilot reads it when it is."
		if f.Level == LevelImport {
			f.Why = f.By + " imports " + f.Name + ", which does not exist: nothing was read for it."
		}
		l.out = append(l.out, f)
		return
	case err != nil:
		f.State, f.Err, f.Why = Refused, err, sentence(err)
		l.out = append(l.out, f)
		return
	}
	text := string(b)
	if f.Level == LevelRule {
		var ours bool
		if text, ours = l.scope(&f, text); !ours {
			return
		}
	}
	if strings.TrimSpace(text) == "" {
		f.State, f.Why = NotFound, "It is empty: nothing goes to the model."
		l.out = append(l.out, f)
		return
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(text)))
	by, ok := l.seen[sum]
	if !ok {
		by, ok = l.given[at.abs]
	}
	if ok {
		f.State, f.Why = Shadowed, "Its text is already in force as "+by+", so it is not given again."
		l.out = append(l.out, f)
		return
	}
	f.State = InForce
	if more {
		f.State, f.Why = Cut, fmt.Sprintf("Only its first %d KiB are given to the model; the model can read the rest with read_file.", MaxFileBytes>>10)
	}
	if len(text) > l.left {
		text = cutAt(text, l.left)
		f.State, f.Why = Cut, fmt.Sprintf("The instruction files together may have %d KiB: only its first %d bytes fit. Shorten the files before it, or this one.", l.budget>>10, len(text))
	}
	l.left -= len(text)
	f.Text = text
	l.seen[sum] = f.Name
	at0 := len(l.out)
	l.out = append(l.out, f)
	chain = append(slices.Clip(chain), at.abs)
	for _, p := range importsOf(text) {
		l.follow(p, l.out[at0], at, chain)
	}
	l.onlyImports(at0)
}

// onlyImports marks the file at i shadowed when its text is nothing but
// imports and none of them is in force (each already was): it adds
// nothing. Its imports shadowed with it are dropped from the list.
func (l *loader) onlyImports(i int) {
	f := &l.out[i]
	if strings.TrimSpace(stripImports(f.Text)) != "" {
		return
	}
	var names []string
	kept := l.out[:i+1]
	for _, c := range l.out[i+1:] {
		if c.Given() {
			return
		}
		if c.By == f.Name && c.State == Shadowed {
			names = append(names, c.Name)
			continue
		}
		kept = append(kept, c)
	}
	if len(names) == 0 {
		return
	}
	l.left += len(f.Text)
	f.Text, f.State = "", Shadowed
	f.Why = "It only imports " + strings.Join(names, ", ") + ", already in force, so it adds nothing."
	l.out = kept
}

// read reads at: at most MaxFileBytes, more when the file goes on.
func (l *loader) read(at loc) ([]byte, bool, error) {
	switch {
	case at.project:
		return l.root.HeadOwn(at.rel, MaxFileBytes)
	case at.folder != "":
		r, ok := l.opened[at.folder]
		if !ok {
			r, _ = os.OpenRoot(at.folder)
			l.opened[at.folder] = r
		}
		if r == nil {
			return nil, false, fs.ErrNotExist
		}
		return projectroot.HeadUserFileIn(r, at.rel, MaxFileBytes)
	}
	return projectroot.HeadUserFile(at.abs, MaxFileBytes)
}

// follow adds the import p of the file by (read at at; chain the files on
// the way to it, itself last), or says why it is not followed.
func (l *loader) follow(p string, by File, at loc, chain []string) {
	abs := p
	switch {
	case strings.HasPrefix(p, "~/"):
		abs = filepath.Join(l.home, p[2:])
		if l.home == "" {
			abs = ""
		}
	case !filepath.IsAbs(p):
		abs = filepath.Join(filepath.Dir(at.abs), filepath.FromSlash(p))
	}
	abs = filepath.Clean(abs)
	f := File{Level: LevelImport, Name: l.shown(abs), Path: abs, By: by.Name, Folder: by.Folder, Paths: by.Paths}
	to, ok := l.where(abs)
	switch {
	case !ok:
		f.State, f.Name = Refused, p
		f.Why = fmt.Sprintf("%s imports %s, which is outside the project folder and your own folders ~/.claude and ~/.codex: it was not read. Move the file into the project, or remove the import.", by.Name, p)
	case slices.Contains(chain, abs):
		f.State = Refused
		f.Why = fmt.Sprintf("%s imports %s, which is already being read on the way to it (an import cycle): the import was not followed. Remove one of the imports.", by.Name, f.Name)
	case len(chain) > MaxDepth:
		f.State = Refused
		f.Why = fmt.Sprintf("%s imports %s %d hops from the file that started the imports; imports are followed %d hops deep: it was not read. Import it from a file nearer the start.", by.Name, f.Name, len(chain), MaxDepth)
	}
	if f.State == Refused {
		f.Err = errors.New(f.Why)
		l.out = append(l.out, f)
		return
	}
	l.add(f, to, chain)
}

// where places the absolute path abs: in the project, or in one of the
// user's folders; ok false for anywhere else.
func (l *loader) where(abs string) (loc, bool) {
	if l.root != nil {
		if rel, ok := below(l.root.Dir(), abs); ok {
			return loc{abs: abs, rel: rel, project: true}, true
		}
	}
	if l.home != "" {
		for _, n := range userFolders {
			folder := filepath.Join(l.home, n)
			if rel, ok := below(folder, abs); ok {
				return loc{abs: abs, rel: rel, folder: folder}, true
			}
		}
	}
	return loc{}, false
}

// shown is abs as the user names it: relative to the project, or ~/ for
// the home folder.
func (l *loader) shown(abs string) string {
	if l.root != nil {
		if rel, ok := below(l.root.Dir(), abs); ok {
			return rel
		}
	}
	if l.home != "" {
		if rel, ok := below(l.home, abs); ok {
			return "~/" + rel
		}
	}
	return abs
}

// below is abs relative to dir, '/'-separated, when abs is strictly below
// dir (lexically).
func below(dir, abs string) (string, bool) {
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return path.Clean(filepath.ToSlash(rel)), true
}

// cutAt is the start of s of at most n bytes, not splitting a character.
func cutAt(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// sentence is err's text as a sentence.
func sentence(err error) string {
	s := strings.TrimSpace(err.Error())
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
