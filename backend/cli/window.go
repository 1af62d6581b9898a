package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// windowFlags are the flags the window itself reads: Wails' dev and
// binding-generation flags (each takes a value). `wails dev` and
// `wails generate module` start the binary with them.
var windowFlags = map[string]bool{
	"assetdir": true, "devserver": true, "frontenddevserverurl": true, "loglevel": true,
	"tsprefix": true, "tssuffix": true, "tsoutputtype": true,
}

// commandWords are the first words Run knows: one of them is never a folder
// (`pilot ./repl` opens a folder named repl).
var commandWords = map[string]bool{
	"repl": true, "sessions": true, "rewind": true, "models": true, "mcp": true, "rules": true, "version": true, "help": true,
}

// WindowFolder reports whether args open the window rather than run a
// headless command, and the folder they name ("" for none): no arguments
// or only the window's own flags (Wails' -assetdir, -devserver, ...), plus
// paths to open (`pilot .`, `pilot ~/src/app`, the files the launcher
// passes for `pilot %F`); the first path wins. A word that is no command
// and no path (no `/`, not `.` or `..`, nothing of that name in the current
// folder) is an unknown command, not a folder, so that Run refuses it with
// the usage instead of opening a window; so is an unknown option.
func WindowFolder(args []string) (folder string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			if commandWords[a] || !pathLike(a) {
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

// ResolveFolder is the absolute folder a window argument names, relative
// to cwd: the folder itself, or the folder of a file (the launcher passes
// files for %F).
func ResolveFolder(arg, cwd string) (string, error) {
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("there is no folder %s: check the path", p)
	case err != nil:
		return "", fmt.Errorf("cannot open %s: %w", p, err)
	case !fi.IsDir():
		return filepath.Dir(p), nil
	}
	return p, nil
}
