package git

import (
	"path/filepath"
	"strings"
)

// traceSetup makes git say on stderr, once it found the repository, where
// it is: git(1)'s GIT_TRACE_SETUP, whose lines are "setup: NAME: VALUE"
// from git 2.26 to today (a value's backslashes, newlines and returns
// escaped with a backslash).
var traceSetup = map[string]string{"GIT_TRACE_SETUP": "2", "GIT_TRACE_BARE": "1"}

// setup is what git said of the repository it found: its git folder and
// common folder (as git opens them: relative to cwd, or absolute), its
// top ("(null)" for none) and the folder git works in.
type setup struct {
	gitDir, commonDir, worktree, cwd string
}

// parseSetup takes git's set-up lines out of its stderr: the set-up, and
// the rest (git's own messages).
func parseSetup(stderr string) (setup, string) {
	var s setup
	var rest strings.Builder
	for line := range strings.Lines(stderr) {
		v, ok := strings.CutPrefix(line, "setup: ")
		if !ok {
			rest.WriteString(line)
			continue
		}
		name, value, _ := strings.Cut(strings.TrimSuffix(v, "\n"), ": ")
		switch name {
		case "git_dir":
			s.gitDir = value
		case "git_common_dir":
			s.commonDir = value
		case "worktree":
			s.worktree = value
		case "cwd":
			s.cwd = value
		}
	}
	return s, rest.String()
}

// abs is p, a path git printed, as an absolute path.
func (s setup) abs(p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.cwd, p)
	}
	return filepath.Clean(p)
}

// files are the files that decide which repository git finds from dir
// and which local configuration it reads: dir; each folder from dir (its
// links resolved, as git walks it) up to the top, its .git, and, below
// the top, its HEAD (a bare repository there would be found first); the
// git folder, its HEAD and commondir, the common folder, its config, and
// the objects and refs folders that make it a repository (when one
// stops being one, git looks further up). ok is false when git found no
// work tree (no repository, a bare one, or dir inside a git folder), or
// dir is not under it, or a path is escaped.
func (s setup) files(dir string) ([]string, bool) {
	for _, v := range []string{s.gitDir, s.commonDir, s.worktree, s.cwd} {
		if v == "" || strings.Contains(v, `\`) {
			return nil, false
		}
	}
	top := filepath.Clean(s.worktree)
	if !filepath.IsAbs(top) || top != filepath.Clean(s.cwd) {
		return nil, false
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || real != top && !strings.HasPrefix(real, strings.TrimSuffix(top, "/")+"/") {
		return nil, false
	}
	files := []string{dir}
	for d := real; ; d = filepath.Dir(d) {
		files = append(files, d, filepath.Join(d, ".git"))
		if d == top {
			break
		}
		files = append(files, filepath.Join(d, "HEAD"))
	}
	g, c := s.abs(s.gitDir), s.abs(s.commonDir)
	return append(files, g, filepath.Join(g, "HEAD"), filepath.Join(g, "commondir"),
		c, filepath.Join(c, "config"), filepath.Join(c, "objects"), filepath.Join(c, "refs")), true
}
