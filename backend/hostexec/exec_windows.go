package hostexec

import (
	"os"
	"path/filepath"
	"strings"
)

// separators are the characters that make a program name a path.
const separators = `/\`

// executable finds the program p names as Windows runs it: p itself when
// its extension is one of PATHEXT's, else p with the first of them that
// is a regular file (npx is npx.cmd). Windows has no execute bit.
func executable(p string) (string, bool) {
	exts := pathExt()
	if ext := strings.ToLower(filepath.Ext(p)); ext != "" {
		for _, e := range exts {
			if e == ext {
				return p, regular(p)
			}
		}
	}
	for _, e := range exts {
		if regular(p + e) {
			return p + e, true
		}
	}
	return "", false
}

// pathExt is PATHEXT's extensions, lower-case, or Windows' own default.
func pathExt() []string {
	v := os.Getenv("PATHEXT")
	if v == "" {
		v = ".com;.exe;.bat;.cmd"
	}
	var out []string
	for _, e := range strings.Split(strings.ToLower(v), ";") {
		if strings.HasPrefix(e, ".") {
			out = append(out, e)
		}
	}
	return out
}

func regular(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
