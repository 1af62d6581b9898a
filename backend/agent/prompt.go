package agent

import (
	"bytes"
	"context"
	_ "embed"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/template"
	"time"

	"pilot/backend/gitwt"
	"pilot/backend/skills"
)

//go:embed system.md
var systemText string

var systemTemplate = template.Must(template.New("system").Parse(systemText))

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
// project's AGENTS.md, CLAUDE.md and progress.md.
func SystemPrompt(ctx context.Context, dir string, now time.Time, installed []skills.Skill) string {
	d := promptData{
		Dir:    dir,
		OS:     runtime.GOOS + "/" + runtime.GOARCH,
		Date:   now.Format("Monday 2 January 2006"),
		Git:    gitStatus(ctx, dir),
		Skills: skills.Prompt(installed),
	}
	for _, name := range projectDocs {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		text := string(b)
		if len(b) > maxDocBytes {
			text = string(b[:maxDocBytes]) + "\n[... cut: the file is longer; read it with read_file]"
		}
		d.Docs = append(d.Docs, promptDoc{Name: name, Text: strings.TrimSpace(text)})
	}
	var b strings.Builder
	if err := systemTemplate.Execute(&b, d); err != nil {
		panic(err) // the template is embedded and tested
	}
	return b.String()
}

// gitStatus returns the branch and a short status, or "" outside a git
// repository (or without a usable git). It is gitwt's hardened git: no
// program the repository names runs, even under --approve none.
func gitStatus(ctx context.Context, dir string) string {
	ctx, cancel := context.WithTimeout(ctx, gitStatusLimit)
	defer cancel()
	g, err := gitwt.Find(ctx)
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
