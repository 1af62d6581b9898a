// Package proctest finds processes by their command line, for the tests
// that check a command, a job or a server left nothing running.
package proctest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// WithCmdline lists the processes other than this one whose command line
// (its arguments joined by NUL bytes, as /proc has it) holds s, each as
// "pid: arguments".
func WithCmdline(s string) []string {
	ents, _ := os.ReadDir("/proc")
	me := strconv.Itoa(os.Getpid())
	var out []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil || e.Name() == me {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(s)) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}
