//go:build unix

package hostexec

import "os"

// separators are the characters that make a program name a path.
const separators = "/"

// executable reports whether p is a regular file with an execute bit (p
// itself is the program found).
func executable(p string) (string, bool) {
	fi, err := os.Stat(p)
	return p, err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
