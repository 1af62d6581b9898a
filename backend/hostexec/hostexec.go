// Package hostexec finds the programs Pilot starts on the host, outside
// the sandbox: language servers, doctor's probes, git, bubblewrap, the
// shell of hooks, MCP servers named by a bare command. A program is found
// only on an absolute PATH entry, and never inside a folder a sandboxed
// command can write: a project Pilot opened, a worktree, the sandbox's
// cache (Distrust). A command in the sandbox writes the project with no
// question, so a gopls or node_modules/.bin/typescript-language-server
// there is the project's code, not the user's program.
//
// exec.LookPath refuses a match on a relative entry (PATH=...: or ".",
// "./node_modules/.bin") with exec.ErrDot but stops there; Find skips such
// a match and goes on, so a program installed on an absolute entry later
// in PATH is still found. When a program was found only where Pilot does
// not run programs from, Find's error (a *SkippedError, errors.Is
// exec.ErrDot or ErrDistrusted) says where and why, and is logged once.
package hostexec

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// ErrDistrusted: the program lies in a folder a sandboxed command can write.
var ErrDistrusted = errors.New("in a folder commands in the sandbox can write")

// Skip is one place a program was found and not taken.
type Skip struct {
	Path string // as found: "./gopls", "/p/node_modules/.bin/gopls"
	In   string // the distrusted folder it lies in ("" for a relative entry)
	Why  error  // exec.ErrDot or ErrDistrusted
}

// SkippedError: the program was found only where Pilot does not run
// programs from.
type SkippedError struct {
	Name    string
	Skipped []Skip
}

func (e *SkippedError) Error() string {
	where := make([]string, len(e.Skipped))
	for i, s := range e.Skipped {
		if s.In == "" {
			where[i] = fmt.Sprintf("%s (a relative PATH entry, which names a folder of whatever folder the program would run in)", s.Path)
		} else {
			where[i] = fmt.Sprintf("%s (in %s, a folder commands in the sandbox can write)", s.Path, s.In)
		}
	}
	return fmt.Sprintf("%s was found only at %s; Pilot does not run programs from there, which a command in the sandbox could have written: install %s in a folder named by an absolute PATH entry, outside your projects",
		e.Name, strings.Join(where, " and "), e.Name)
}

// Unwrap gives each skip's reason, for errors.Is.
func (e *SkippedError) Unwrap() []error {
	out := make([]error, len(e.Skipped))
	for i, s := range e.Skipped {
		out[i] = s.Why
	}
	return out
}

// The folders programs are never taken from, as given and resolved, for
// the whole process (a project stays distrusted once opened: what a
// command wrote there stays). log is where skips are told (nil: nowhere).
var state struct {
	mu         sync.RWMutex
	distrusted map[string]bool
	log        *slog.Logger
	told       map[string]bool
}

// Distrust adds folders no program is taken from: every folder a
// sandboxed command may write (projects, worktrees, the sandbox's cache).
// Relative or empty ones are ignored.
func Distrust(dirs ...string) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.distrusted == nil {
		state.distrusted = map[string]bool{}
	}
	for _, d := range dirs {
		for _, p := range forms(d) {
			state.distrusted[p] = true
		}
	}
}

// SetLog makes skips and PATH entries left out logged (once each) to l.
func SetLog(l *slog.Logger) {
	state.mu.Lock()
	defer state.mu.Unlock()
	state.log = l
}

// forms is an absolute folder as given (cleaned) and resolved.
func forms(d string) []string {
	if d == "" || !filepath.IsAbs(d) {
		return nil
	}
	out := []string{filepath.Clean(d)}
	if real, err := filepath.EvalSymlinks(d); err == nil && real != out[0] {
		out = append(out, real)
	}
	return out
}

// LookPath is Find on Pilot's own PATH.
func LookPath(file string) (string, error) {
	return Find(file, os.Getenv("PATH"))
}

// Find finds the program file on pathEnv (a PATH value) as exec.LookPath
// does, taking it only from an absolute entry and outside the distrusted
// folders (Distrust's and more). A name with a slash is taken as it is
// when absolute and outside them. Not found anywhere: an *exec.Error
// with exec.ErrNotFound; found only where it is not taken: a
// *SkippedError.
func Find(file, pathEnv string, more ...string) (string, error) {
	dis := distrusted(more)
	var skipped []Skip
	if strings.ContainsAny(file, separators) {
		exe, ok := executable(file)
		switch {
		case !ok:
			return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
		case !filepath.IsAbs(file):
			skipped = append(skipped, Skip{Path: file, Why: exec.ErrDot})
		default:
			if in := within(exe, dis); in != "" {
				skipped = append(skipped, Skip{Path: exe, In: in, Why: ErrDistrusted})
			} else {
				return exe, nil
			}
		}
		return "", skippedError(file, skipped)
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" {
			dir = "."
		}
		p, ok := executable(filepath.Join(dir, file))
		if !ok {
			continue
		}
		if !filepath.IsAbs(dir) {
			skipped = append(skipped, Skip{Path: strings.TrimSuffix(dir, "/") + "/" + file, Why: exec.ErrDot})
			continue
		}
		if in := within(p, dis); in != "" {
			skipped = append(skipped, Skip{Path: p, In: in, Why: ErrDistrusted})
			continue
		}
		return p, nil
	}
	if skipped == nil {
		return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
	}
	return "", skippedError(file, skipped)
}

// skippedError builds the error and logs it, once per program and places.
func skippedError(file string, skipped []Skip) error {
	err := &SkippedError{Name: file, Skipped: skipped}
	tell("hostexec: a program was found only where Pilot does not run programs from", err.Error())
	return err
}

// tell logs msg once per detail.
func tell(msg, detail string) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.log == nil || state.told[detail] {
		return
	}
	if state.told == nil {
		state.told = map[string]bool{}
	}
	state.told[detail] = true
	state.log.Warn(msg, "detail", detail)
}

// CleanPath is pathEnv without the entries Find never takes programs
// from: relative or empty ones, and those inside a distrusted folder. A
// program Pilot starts gets it, so what it starts in turn (a language
// server's node or go) is found as Find would.
func CleanPath(pathEnv string, more ...string) string {
	dis := distrusted(more)
	var keep, drop []string
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" || !filepath.IsAbs(dir) || within(dir, dis) != "" {
			drop = append(drop, fmt.Sprintf("%q", dir))
			continue
		}
		keep = append(keep, dir)
	}
	if drop != nil {
		tell("hostexec: PATH entries left out of the PATH of programs Pilot starts", strings.Join(drop, ", "))
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

// Env is env with its PATH cleaned (CleanPath); env is not changed.
func Env(env []string, more ...string) []string {
	out := make([]string, len(env))
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			kv = "PATH=" + CleanPath(v, more...)
		}
		out[i] = kv
	}
	return out
}

// distrusted is Distrust's folders and more's, as given and resolved.
func distrusted(more []string) []string {
	state.mu.RLock()
	out := make([]string, 0, len(state.distrusted)+2*len(more))
	for d := range state.distrusted {
		out = append(out, d)
	}
	state.mu.RUnlock()
	for _, d := range more {
		out = append(out, forms(d)...)
	}
	return out
}

// within returns the distrusted folder p lies in, p being taken as
// written, resolved, and by its folder resolved (a link out of a project
// is still in the project: a command can change it); "" for none.
func within(p string, dis []string) string {
	if len(dis) == 0 {
		return ""
	}
	cands := []string{filepath.Clean(p)}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		cands = append(cands, real)
	}
	if real, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		cands = append(cands, real)
	}
	for _, c := range cands {
		for _, d := range dis {
			if c == d || strings.HasPrefix(c, strings.TrimSuffix(d, string(filepath.Separator))+string(filepath.Separator)) {
				return d
			}
		}
	}
	return ""
}
