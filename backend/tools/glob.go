package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"pilot/backend/projectroot"
	"pilot/backend/toolname"
)

const maxGlobResults = 100

// GlobParams is the input of glob.
type GlobParams struct {
	Pattern string `json:"pattern" desc:"Doublestar pattern matched against paths relative to the search folder: \"**/*.go\", \"src/**/*.{ts,tsx}\", \"*.md\"."`
	Path    string `json:"path,omitempty" desc:"Folder to search in, relative to the project root. Default: the project root."`
}

func labelGlob(p GlobParams) string {
	l := fmt.Sprintf("→ Finding files: '%s'", p.Pattern)
	if p.Path != "" && p.Path != "." {
		l += " in " + p.Path
	}
	return l
}

// searchDir resolves the folder a search starts in; a mistake or a
// *projectroot.PathError when it is not one (see resolveErr).
func searchDir(d Deps, p string) (projectroot.Path, error) {
	fi, dir, err := d.Root.Stat(p)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return dir, err
	case err != nil:
		return dir, mistakef("The folder %q does not exist in the project root %s. Call list_files to see what exists.", p, d.Root.Dir())
	case !fi.IsDir():
		return dir, mistakef("%q is a file, not a folder. Give a folder as path (or leave it out to search the whole project).", p)
	}
	return dir, nil
}

// relTo returns rel ('/'-separated, relative to the root) relative to the
// folder dir, which contains it.
func relTo(dir, rel string) string {
	if dir == "." {
		return rel
	}
	return rel[len(dir)+1:]
}

// nameOnly returns name when pattern is "**/name" and name can only match
// a file's name: without '/', "**", '[' (doublestar's [^x] matches a
// '/') or '\'. Matching the name alone is then the same as matching the
// path, and cheaper.
func nameOnly(pattern string) (string, bool) {
	name, ok := strings.CutPrefix(pattern, "**/")
	return name, ok && !strings.ContainsAny(name, "/[\\") && !strings.Contains(name, "**")
}

type globHit struct {
	rel   string
	mtime time.Time
}

func runGlob(ctx context.Context, d Deps, p GlobParams) (Result, error) {
	pattern := strings.TrimPrefix(p.Pattern, "./")
	switch {
	case pattern == "":
		return errorf("The pattern is empty. Give a doublestar pattern such as \"**/*.go\"."), nil
	case strings.HasPrefix(pattern, "/"):
		return errorf("The pattern %q is absolute; patterns are matched against paths relative to the search folder. Use path for the folder and a relative pattern, for example pattern \"**/*.go\".", p.Pattern), nil
	case !doublestar.ValidatePattern(pattern):
		return errorf("The pattern %q is not a valid glob (check the brackets [] and braces {}). Examples: \"**/*.go\", \"src/**/*.{ts,tsx}\".", p.Pattern), nil
	}
	dir, err := searchDir(d, p.Path)
	if err != nil {
		return resolveErr(err)
	}
	// Start below the pattern's literal folder prefix when there is one.
	start := dir
	if base, _ := doublestar.SplitPattern(pattern); base != "." {
		if s, err := d.Root.Resolve(path.Join(dir.Rel, base)); err == nil && s.Rel == path.Join(dir.Rel, base) {
			start = s
		}
	}
	match := func(e projectroot.Entry) bool { return doublestar.MatchUnvalidated(pattern, relTo(dir.Rel, e.Rel)) }
	if name, ok := nameOnly(pattern); ok {
		match = func(e projectroot.Entry) bool { return doublestar.MatchUnvalidated(name, e.Name) }
	}
	var (
		mu   sync.Mutex
		hits []globHit
		held atomic.Int64
	)
	err = d.Root.Walk(ctx, start, func(e projectroot.Entry) {
		if !e.Type.IsRegular() || !match(e) {
			return
		}
		if d.withheld(toolname.Glob, e.Rel) {
			held.Add(1)
			return
		}
		fi, err := e.Lstat()
		if err != nil {
			return
		}
		mu.Lock()
		hits = append(hits, globHit{rel: e.Rel, mtime: fi.ModTime()})
		mu.Unlock()
	})
	if err != nil {
		return Result{}, err
	}
	where := displayDir(dir.Rel)
	if len(hits) == 0 {
		msg := fmt.Sprintf("No files match '%s' in %s (ignored files are skipped).", p.Pattern, where)
		if !strings.Contains(pattern, "/") {
			msg += fmt.Sprintf(" The pattern only matches files directly in %s; use '**/%s' to search every folder below it.", where, pattern)
		}
		if n := held.Load(); n > 0 {
			msg += "\n" + withheldNote(int(n))
		}
		return Result{Output: msg}, nil
	}
	slices.SortFunc(hits, func(a, b globHit) int {
		if c := b.mtime.Compare(a.mtime); c != 0 {
			return c
		}
		return strings.Compare(a.rel, b.rel)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Found %s matching '%s' in %s (newest first):\n", plural(len(hits), "file"), p.Pattern, where)
	for i, h := range hits {
		if i == maxGlobResults {
			fmt.Fprintf(&b, "... and %d more\n", len(hits)-maxGlobResults)
			break
		}
		b.WriteString(h.rel)
		b.WriteByte('\n')
	}
	if n := held.Load(); n > 0 {
		b.WriteString(withheldNote(int(n)))
	}
	return Result{Output: strings.TrimRight(b.String(), "\n")}, nil
}
