package mcp

import (
	"strings"
	"sync"
)

// stderrLines keeps the last lines a server wrote to stderr.
const stderrLines = 40

type ring struct {
	mu    sync.Mutex
	lines []string
	part  string
}

func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.part + string(p)
	parts := strings.Split(s, "\n")
	r.part = parts[len(parts)-1]
	if len(r.part) > 2000 {
		r.part = r.part[:2000]
	}
	for _, l := range parts[:len(parts)-1] {
		r.lines = append(r.lines, strings.TrimRight(l, "\r"))
	}
	if over := len(r.lines) - stderrLines; over > 0 {
		r.lines = append([]string(nil), r.lines[over:]...)
	}
	return len(p), nil
}

// last returns the kept lines, the unfinished one included.
func (r *ring) last() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]string{}, r.lines...)
	if r.part != "" {
		out = append(out, r.part)
	}
	return out
}
