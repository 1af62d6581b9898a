package tools

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"pilot/backend/projectroot"
)

// maxGrepMatches caps the lines shown by grep; counting goes on.
const maxGrepMatches = 50

// maxMatchLineLen is how much of a matching line is shown.
const maxMatchLineLen = 300

type grepMatch struct {
	line int
	text string
}

// grepFile is the matches in one file: all counted, the first kept.
type grepFile struct {
	rel     string
	count   int
	matches []grepMatch
}

// searcher looks for one pattern in files. It is safe for concurrent use.
type searcher struct {
	re   *regexp.Regexp
	plan literalPlan
	keep func(projectroot.Entry) bool // file filter
	bufs sync.Pool                    // *[]byte file buffers
}

// search walks from start and returns the files with matches, by path.
// withheld, when not nil, leaves files out (counted in the int returned).
func (s *searcher) search(ctx context.Context, root *projectroot.Root, start projectroot.Path, withheld func(rel string) bool) ([]grepFile, int, error) {
	var (
		mu    sync.Mutex
		files []grepFile
		held  atomic.Int64
	)
	err := root.Walk(ctx, start, func(e projectroot.Entry) {
		if !e.Type.IsRegular() || !s.keep(e) {
			return
		}
		if withheld != nil && withheld(e.Rel) {
			held.Add(1)
			return
		}
		if f := s.searchFile(e); f.count > 0 {
			mu.Lock()
			files = append(files, f)
			mu.Unlock()
		}
	})
	slices.SortFunc(files, func(a, b grepFile) int { return strings.Compare(a.rel, b.rel) })
	return files, int(held.Load()), err
}

// searchFile reads one file into a pooled buffer and searches it.
func (s *searcher) searchFile(e projectroot.Entry) grepFile {
	res := grepFile{rel: e.Rel}
	fd, err := e.OpenFd()
	if err != nil {
		return res
	}
	defer projectroot.CloseFd(fd)
	bp, _ := s.bufs.Get().(*[]byte)
	if bp == nil {
		b := make([]byte, 64<<10)
		bp = &b
	}
	defer s.bufs.Put(bp)
	data, ok := readAll(fd, bp)
	if !ok {
		return res
	}
	s.scan(data, &res)
	return res
}

// readAll reads the file fd into *bp, growing it as needed. It gives up (ok
// false) when the first 8 KB show a binary file. A short read means the end
// of a regular file, which saves the read that would return 0.
func readAll(fd int, bp *[]byte) (data []byte, ok bool) {
	buf := (*bp)[:cap(*bp)]
	n := 0
	for {
		m, err := projectroot.ReadFd(fd, buf[n:])
		if err != nil {
			return nil, false
		}
		if n < sniffLen && isBinary(buf[n:n+m]) {
			return nil, false
		}
		n += m
		if n < len(buf) {
			return buf[:n], true
		}
		buf = slices.Grow(buf, len(buf))[:2*len(buf)]
		*bp = buf
	}
}

// scan finds the matching lines of data. It jumps from candidate to
// candidate (the required literal, else the next regexp match) instead of
// testing every line, and counts line numbers only up to each candidate.
func (s *searcher) scan(data []byte, res *grepFile) {
	var lit []byte
	if s.plan.usable(data) {
		lit = s.plan.lit
	}
	line, counted := 1, 0
	for pos := 0; pos < len(data); {
		var at, end int
		if lit != nil {
			i := s.plan.index(data[pos:])
			if i < 0 {
				return
			}
			at, end = pos+i, pos+i+len(lit)
		} else {
			loc := s.re.FindIndex(data[pos:])
			if loc == nil {
				return
			}
			at, end = pos+loc[0], pos+loc[1]
		}
		ls := pos + bytes.LastIndexByte(data[pos:at], '\n') + 1
		le := len(data)
		if i := bytes.IndexByte(data[at:], '\n'); i >= 0 {
			le = at + i
		}
		text := data[ls:le]
		// A literal hit needs the regexp unless it is the whole pattern; a
		// regexp hit running past the line end needs a check within the line.
		hit := true
		if (lit != nil && !s.plan.pure) || (lit == nil && end > le) {
			hit = s.re.Match(text)
		}
		if hit {
			line += bytes.Count(data[counted:ls], []byte{'\n'})
			counted = ls
			res.count++
			if len(res.matches) < maxGrepMatches {
				res.matches = append(res.matches, grepMatch{line: line, text: s.shown(text)})
			}
		}
		pos = le + 1
	}
}

// shown returns the text of a matching line, cut around the match when long.
func (s *searcher) shown(text []byte) string {
	text = bytes.TrimSuffix(text, []byte{'\r'})
	if len(text) <= maxMatchLineLen {
		return string(text)
	}
	from := 0
	if loc := s.re.FindIndex(text); loc != nil {
		from = max(0, loc[0]-maxMatchLineLen/3)
	}
	for from > 0 && !isRuneStart(text[from]) {
		from--
	}
	to := min(len(text), from+maxMatchLineLen)
	for to < len(text) && !isRuneStart(text[to]) {
		to++
	}
	out := string(text[from:to])
	if from > 0 {
		out = "…" + out
	}
	if to < len(text) {
		out += "…"
	}
	return out
}
