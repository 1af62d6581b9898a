package agent

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"runtime"
	"strconv"
	"strings"
	"time"

	"pilot/backend/git"
	"pilot/backend/projectroot"
	"pilot/backend/skills"
)

// projectDocs are the project files included in the system prompt when
// present, in this order.
var projectDocs = []string{"AGENTS.md", "CLAUDE.md", "progress.md"}

const (
	maxDocBytes    = 32 << 10
	maxGitLines    = 30
	gitStatusLimit = 2 * time.Second
)

type promptDoc struct {
	Name string
	Text string
}

type promptData struct {
	Dir  string
	OS   string
	Date string
	Git  string
	Docs []promptDoc
	// Skills is the part naming the installed skills (skills.Prompt).
	Skills string
}

// SystemPrompt builds the system prompt for a project folder: the tool
// decider and working rules, the folder, the OS, the date, a short git
// status, the installed skills (names and descriptions only), and the
// project's AGENTS.md, CLAUDE.md and progress.md. notRead are the
// instruction files left out, each a *projectroot.NotRead saying why and what
// to do (see ProjectDocs).
func SystemPrompt(ctx context.Context, dir string, now time.Time, installed []skills.Skill) (prompt string, notRead []error) {
	d := promptData{
		Dir:    dir,
		OS:     runtime.GOOS + "/" + runtime.GOARCH,
		Date:   now.Format("Monday 2 January 2006"),
		Git:    gitStatus(ctx, dir),
		Skills: skills.Prompt(installed),
	}
	docs, notRead := ProjectDocs(dir)
	for _, doc := range docs {
		text := doc.Text
		if doc.Cut {
			text += "\n[... cut: the file is longer; read it with read_file]"
		}
		d.Docs = append(d.Docs, promptDoc{Name: doc.Name, Text: strings.TrimSpace(text)})
	}
	var b strings.Builder
	render(&b, "system.md", d)
	return b.String(), notRead
}

// ProjectDoc is an instruction file of the project as the system prompt
// has it.
type ProjectDoc struct {
	Name string // AGENTS.md, CLAUDE.md or progress.md
	Text string // at most maxDocBytes of it
	Cut  bool   // the file is longer
}

// ProjectDocs reads the project's instruction files that are there and
// not empty, through the project root: a link that leaves the project
// (AGENTS.md -> /proc/self/environ), anything but a regular file (a FIFO,
// /dev/zero) and a folder is not read, and is in notRead as a
// *projectroot.NotRead naming the file and what to do; a link inside the
// project is followed. Each is read up to maxDocBytes (the rest cut).
func ProjectDocs(dir string) (docs []ProjectDoc, notRead []error) {
	root, err := projectroot.New(dir)
	if err != nil {
		return nil, nil // no project folder: nothing to read
	}
	defer root.Close()
	for _, name := range projectDocs {
		b, cut, err := root.HeadOwn(name, maxDocBytes)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				notRead = append(notRead, err)
			}
			continue
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		docs = append(docs, ProjectDoc{Name: name, Text: string(b), Cut: cut})
	}
	return docs, notRead
}

// gitStatus returns the branch and a short status, or "" outside a git
// repository (or without a usable git). It is package git's hardened git: no
// program the repository names runs, even under --approve none.
func gitStatus(ctx context.Context, dir string) string {
	ctx, cancel := context.WithTimeout(ctx, gitStatusLimit)
	defer cancel()
	g, err := git.Find(ctx)
	if err != nil {
		return ""
	}
	out, err := g.ShortStatus(ctx, dir)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) > maxGitLines {
		more := len(lines) - maxGitLines
		lines = append(lines[:maxGitLines], "... and "+strconv.Itoa(more)+" more")
	}
	return strings.Join(lines, "\n")
}
