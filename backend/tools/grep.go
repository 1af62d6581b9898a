package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"pilot/backend/projectroot"
	"pilot/backend/toolname"
)

// GrepParams is the input of grep.
type GrepParams struct {
	Pattern     string `json:"pattern" desc:"RE2 regular expression (Go syntax), matched against each line. Prefix (?i) to ignore case."`
	Path        string `json:"path,omitempty" desc:"Folder to search in, relative to the project root. Default: the project root."`
	FilePattern string `json:"file_pattern,omitempty" desc:"Glob on file names, e.g. \"*.go\" or \"*.{ts,tsx}\"; with a '/', matched against the path relative to the search folder (\"src/**/*.ts\")."`
}

func labelGrep(p GrepParams) string {
	dir := p.Path
	if dir == "" {
		dir = "."
	}
	l := fmt.Sprintf("→ Searching: '%s' in %s", p.Pattern, dir)
	if p.FilePattern != "" {
		l += " (" + p.FilePattern + ")"
	}
	return l
}

func runGrep(ctx context.Context, d Deps, p GrepParams) (Result, error) {
	re, msg := compileGrep(p.Pattern)
	if re == nil {
		return errorf("%s", msg), nil
	}
	fp := strings.TrimPrefix(p.FilePattern, "./")
	if fp != "" && !doublestar.ValidatePattern(fp) {
		return errorf("file_pattern %q is not a valid glob (check the brackets [] and braces {}). Examples: \"*.go\", \"*.{ts,tsx}\", \"src/**/*.py\".", p.FilePattern), nil
	}
	dir, err := searchDir(d, p.Path)
	if err != nil {
		return resolveErr(err)
	}
	s := newSearcher(p.Pattern, re)
	switch {
	case fp == "":
	case strings.Contains(fp, "/"):
		s.keep = func(e projectroot.Entry) bool { return doublestar.MatchUnvalidated(fp, relTo(dir.Rel, e.Rel)) }
	default:
		s.keep = func(e projectroot.Entry) bool { return doublestar.MatchUnvalidated(fp, e.Name) }
	}
	var withheld func(string) bool
	if d.Withheld != nil {
		withheld = func(rel string) bool { return d.Withheld(toolname.Grep, rel) }
	}
	files, held, err := s.search(ctx, d.Root, dir, withheld)
	if err != nil {
		return Result{}, err
	}
	out := formatGrep(p, displayDir(dir.Rel), files)
	if held > 0 {
		out += "\n" + withheldNote(held)
	}
	return Result{Output: out}, nil
}

// formatGrep writes "path:line: text" lines grouped by file, at most
// maxGrepMatches, then how many more there are.
func formatGrep(p GrepParams, where string, files []grepFile) string {
	scope := where
	if p.FilePattern != "" {
		scope += " (" + p.FilePattern + ")"
	}
	if len(files) == 0 {
		return fmt.Sprintf("No matches for '%s' in %s (binary and ignored files are skipped). The pattern is an RE2 regular expression matched line by line and is case-sensitive; try (?i) for any case, a shorter pattern, or another path.", p.Pattern, scope)
	}
	total := 0
	for _, f := range files {
		total += f.count
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Found %s in %s for '%s' in %s:\n", plural(total, "match"), plural(len(files), "file"), p.Pattern, scope)
	shown, restFiles := 0, 0
	for _, f := range files {
		n := min(len(f.matches), maxGrepMatches-shown)
		if n > 0 {
			b.WriteByte('\n')
			for _, m := range f.matches[:n] {
				fmt.Fprintf(&b, "%s:%d: %s\n", f.rel, m.line, m.text)
			}
			shown += n
		}
		if n < f.count {
			restFiles++
		}
	}
	if total > shown {
		fmt.Fprintf(&b, "\n... and %s in %s\n", plural(total-shown, "more match"), plural(restFiles, "file"))
	}
	return strings.TrimRight(b.String(), "\n")
}
