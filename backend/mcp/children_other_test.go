//go:build !windows

package mcp

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// children lists the live processes whose parent is this test process
// (zombies included: a zombie is a child not reaped).
func children(t *testing.T) []string {
	t.Helper()
	me := strconv.Itoa(os.Getpid())
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		if len(f) > 1 && f[1] == me {
			out = append(out, e.Name()+" "+s[:strings.LastIndexByte(s, ')')+1]+" "+f[0])
		}
	}
	return out
}
