package config

import (
	"fmt"
	"path/filepath"
	"strings"
)

// MaxSandboxHidden caps the extra paths the sandbox hides.
const MaxSandboxHidden = 100

// CleanSandboxHidden checks the extra paths the sandbox hides (Settings)
// and returns them cleaned, without blanks or duplicates: each must be
// absolute or start with "~/" (the home folder). A bad one is refused
// with a sentence naming it.
func CleanSandboxHidden(paths []string) ([]string, error) {
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
			return nil, fmt.Errorf("the hidden path %q holds a control character: give one path per line", p)
		case strings.HasPrefix(p, "~/"):
			rest := filepath.Clean(p[2:])
			if rest == "." || rest == ".." || strings.HasPrefix(rest, "../") {
				return nil, fmt.Errorf("the hidden path %q does not name a place inside the home folder: write it as ~/folder or as an absolute path", p)
			}
			clean = "~/" + rest
		case filepath.IsAbs(p):
			clean = filepath.Clean(p)
			if clean == "/" {
				return nil, fmt.Errorf("the hidden path %q would hide the whole file system: name the folder or file to hide", p)
			}
		default:
			return nil, fmt.Errorf("the hidden path %q is neither absolute nor under ~/: write it as /abs/path or ~/folder", p)
		}
		if !seen[clean] {
			seen[clean] = true
			out = append(out, clean)
		}
	}
	if len(out) > MaxSandboxHidden {
		return nil, fmt.Errorf("%d hidden paths were given; at most %d are kept: hide a parent folder instead", len(out), MaxSandboxHidden)
	}
	return out, nil
}
