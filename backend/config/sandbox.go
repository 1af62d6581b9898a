package config

import (
	"fmt"
	"path/filepath"
	"strings"
)

// MaxSandboxHidden caps the extra paths the sandbox hides, and the
// sockets it lets commands reach.
const MaxSandboxHidden = 100

// CleanSandboxHidden checks the extra paths the sandbox hides (Settings)
// and returns them cleaned, without blanks or duplicates: each must be
// absolute or start with "~/" (the home folder). A bad one is refused
// with a sentence naming it.
func CleanSandboxHidden(paths []string) ([]string, error) {
	out, err := cleanSandboxPaths(paths, "hidden path")
	if err == nil && len(out) > MaxSandboxHidden {
		return nil, fmt.Errorf("%d hidden paths were given; at most %d are kept: hide a parent folder instead", len(out), MaxSandboxHidden)
	}
	return out, err
}

// CleanSandboxSockets checks the unix sockets commands may connect to
// (Settings: a socket, or a folder of sockets) as CleanSandboxHidden
// checks the hidden paths.
func CleanSandboxSockets(paths []string) ([]string, error) {
	out, err := cleanSandboxPaths(paths, "allowed socket")
	if err == nil && len(out) > MaxSandboxHidden {
		return nil, fmt.Errorf("%d allowed sockets were given; at most %d are kept: allow their folder instead", len(out), MaxSandboxHidden)
	}
	return out, err
}

// cleanSandboxPaths cleans absolute or "~/" paths; what names them in
// the refusals.
func cleanSandboxPaths(paths []string, what string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		var clean string
		switch {
		case strings.ContainsRune(p, 0) || strings.ContainsAny(p, "\n\r"):
			return nil, fmt.Errorf("the %s %q holds a control character: give one path per line", what, p)
		case strings.HasPrefix(p, "~/"):
			rest := filepath.Clean(p[2:])
			if rest == "." || rest == ".." || strings.HasPrefix(rest, "../") {
				return nil, fmt.Errorf("the %s %q does not name a place inside the home folder: write it as ~/folder or as an absolute path", what, p)
			}
			clean = "~/" + rest
		case filepath.IsAbs(p):
			clean = filepath.Clean(p)
			if clean == "/" {
				return nil, fmt.Errorf("the %s %q names the whole file system: name the folder or file", what, p)
			}
		default:
			return nil, fmt.Errorf("the %s %q is neither absolute nor under ~/: write it as /abs/path or ~/folder", what, p)
		}
		if !seen[clean] {
			seen[clean] = true
			out = append(out, clean)
		}
	}
	return out, nil
}
