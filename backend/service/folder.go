package service

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ProjectPath is the one resolution of a project folder, for every way
// one is named (the window's Open, `pilot DIR`, --project, PILOT_PROJECT,
// a second launch): absolute, with links resolved (filepath.EvalSymlinks),
// so that a folder reached through a link and by its real path is one
// project with one history. A path that does not exist, or names a file,
// is refused with a sentence that says so.
func ProjectPath(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("no folder given: type the path of a project folder or pick one")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("%s does not exist: check the path, or create the folder first", abs)
	case err != nil:
		return "", fmt.Errorf("cannot open %s: %w", abs, err)
	case !st.IsDir():
		return "", fmt.Errorf("%s is a file, not a folder: open the folder that holds it", abs)
	}
	return abs, nil
}

// ResolveFolder is the project folder a window argument names, relative
// to cwd: the folder itself, or the folder of a file (the launcher passes
// files for %F), resolved as ProjectPath does.
func ResolveFolder(arg, cwd string) (string, error) {
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		p = filepath.Dir(p)
	}
	return ProjectPath(p)
}

// windowFlags are the flags the window itself reads: Wails' dev and
// binding-generation flags (each takes a value). `wails dev` and
// `wails generate module` start the binary with them.
var windowFlags = map[string]bool{
	"assetdir": true, "devserver": true, "frontenddevserverurl": true, "loglevel": true,
	"tsprefix": true, "tssuffix": true, "tsoutputtype": true,
}

// CommandWords are the first words of the command line's commands: one of
// them is never a folder (`pilot ./repl` opens a folder named repl). The
// command line's tests check that it knows each.
var CommandWords = map[string]bool{
	"repl": true, "sessions": true, "rewind": true, "models": true, "mcp": true, "rules": true, "doctor": true, "version": true, "help": true,
	"review": true,
}

// WindowFolder reports whether args open the window rather than run a
// headless command, and the folder they name ("" for none): no arguments
// or only the window's own flags (Wails' -assetdir, -devserver, ...), plus
// paths to open (`pilot .`, `pilot ~/src/app`, the files the launcher
// passes for `pilot %F`); the first path wins. A word that is no command
// and no path (no `/`, not `.` or `..`, nothing of that name in the current
// folder) is an unknown command, not a folder, so that the command line
// refuses it with its usage instead of opening a window; so is an unknown
// option.
func WindowFolder(args []string) (folder string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			if CommandWords[a] || !pathLike(a) {
				return "", false
			}
			if folder == "" {
				folder = a
			}
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !windowFlags[name] {
			return "", false
		}
		if !hasValue {
			i++ // the flag's value
		}
	}
	return folder, true
}

func pathLike(a string) bool {
	if a == "" {
		return false
	}
	if strings.ContainsRune(a, filepath.Separator) || a == "." || a == ".." {
		return true
	}
	_, err := os.Lstat(a)
	return err == nil
}
