package sandbox

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// guardedPaths are the real paths of Policy.Guarded that exist inside the
// project (not the project itself) and lie in no hidden path (but for
// the hidden folder holding the project, as keepReadOnly): bound
// read-only, deeper than the project's writable bind, so the kernel
// refuses every change beneath them (EROFS), renaming them away included
// (a mount point cannot be moved).
func guardedPaths(p Policy) []string {
	if p.Project == "" {
		return nil
	}
	var in []string
	seen := map[string]bool{}
	for _, g := range p.Guarded {
		real := expand(g, "")
		if real == "" || real == p.Project || seen[real] || !under(real, p.Project) {
			continue
		}
		seen[real] = true
		in = append(in, real)
	}
	// keepReadOnly's rule for hidden folders: a worktree session's
	// project lies in the hidden PILOT_HOME and is still guarded.
	return keepReadOnly(p, in)
}

// guardedRefusal is a line saying a write or a move was refused: a
// read-only mount, or a mount point that cannot be moved or removed.
var guardedRefusal = regexp.MustCompile(`(?i)read-only file system|\bEROFS\b|device or resource busy|\bEBUSY\b`)

// guardedIn is the guarded path a line refusing a write or a move names
// (absolute, or relative to the project, where commands start); "" for
// none.
func guardedIn(line, project string, guarded []string) string {
	if len(guarded) == 0 || !guardedRefusal.MatchString(line) {
		return ""
	}
	ps := paths(line)
	if project != "" {
		// Relative paths: any word, its quotes and colon taken off.
		for _, w := range strings.Fields(line) {
			w = strings.Trim(w, `'"‘’:`)
			if w != "" && !filepath.IsAbs(w) {
				ps = append(ps, filepath.Join(project, w))
			}
		}
	}
	for _, path := range ps {
		for _, g := range guarded {
			if under(path, g) {
				return g
			}
		}
	}
	return ""
}

// guardedNote is Explain's sentence for a refused write to a guarded
// path.
func guardedNote(g, home string) string {
	return fmt.Sprintf("The sandbox keeps %s read-only: what grants Pilot rights or runs on the user's machine (the project's .claude/ and .pilot/ settings, .mcp.json, the scripts its hooks run) cannot be changed by a command. Propose the change with write_file or patch_file, which the user reviews, or run the command again with sandbox: false and a reason, which asks the user.", short(g, home))
}
