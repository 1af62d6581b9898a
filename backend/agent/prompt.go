package agent

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"time"

	"pilot/backend/git"
	"pilot/backend/memory"
	"pilot/backend/skills"
)

const (
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
// instruction files given (memory.Load's, of the user and the project, in
// its order: the user's, the project's, CLAUDE.local.md, .claude/rules,
// each followed by its imports). notRead are the instruction files left
// out, each a sentence saying why and what to do (a
// *projectroot.NotRead, or an import's refusal).
func SystemPrompt(ctx context.Context, files []memory.File, dir string, now time.Time, installed []skills.Skill) (prompt string, notRead []error) {
	d := promptData{
		Dir:    dir,
		OS:     runtime.GOOS + "/" + runtime.GOARCH,
		Date:   now.Format("Monday 2 January 2006"),
		Git:    gitStatus(ctx, dir),
		Skills: skills.Prompt(installed),
	}
	for _, f := range files {
		if f.State == memory.Refused {
			notRead = append(notRead, f.Err)
		}
		if !f.Given() {
			continue
		}
		text := strings.TrimSpace(f.Text)
		if f.State == memory.Cut {
			text += "\n[... cut: the file is longer than Pilot gives the model]"
		}
		d.Docs = append(d.Docs, promptDoc{Name: f.Heading(), Text: text})
	}
	var b strings.Builder
	render(&b, "system.md", d)
	return b.String(), notRead
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
