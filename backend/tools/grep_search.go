package tools

import (
	"bytes"
	"context"
	"regexp"
	"regexp/syntax"
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

// Sizes of the reads and of the regexp's windows (see searcher).
const (
	grepChunk = 256 << 10
	// regexp's backtracker, much faster than its NFA, takes inputs of up to
	// 256 Kbit divided by the program's instruction count.
	backtrackBits = 256 << 10
)

// searcher looks for one pattern in files. It is safe for concurrent use.
type searcher struct {
	re   *regexp.Regexp
	plan literalPlan
	keep func(projectroot.Entry) bool // file filter
	// whole: the pattern holds \A or \z, whose meaning depends on where
	// the searched text ends: files are read and searched whole.
	whole bool
	// chunk is the size of a read; a file is searched chunk by chunk, each
	// cut after its last complete line. window bounds the text given to
	// the regexp when there is no literal to look for (cut after a line),
	// so that it runs its backtracker instead of its NFA.
	chunk, window int
	bufs          chan *[]byte // file buffers, kept for the whole search
}

func newSearcher(pattern string, re *regexp.Regexp) *searcher {
	s := &searcher{re: re, plan: planLiterals(pattern), keep: func(projectroot.Entry) bool { return true },
		chunk: grepChunk, bufs: make(chan *[]byte, 16)}
	if tree, err := syntax.Parse("(?m)"+pattern, syntax.Perl); err == nil {
		s.whole = hasTextAnchor(tree)
		// (with more than 500 instructions it never backtracks)
		if prog, err := syntax.Compile(tree.Simplify()); err == nil && len(prog.Inst) <= 500 {
			s.window = backtrackBits/len(prog.Inst) - 256
		}
	}
	return s
}

// hasTextAnchor reports whether re holds \A or \z.
func hasTextAnchor(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText {
		return true
	}
	return slices.ContainsFunc(re.Sub, hasTextAnchor)
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

// searchFile reads one file with a buffer of the search and searches it.
func (s *searcher) searchFile(e projectroot.Entry) grepFile {
	fd, err := e.OpenFd()
	if err != nil {
		return grepFile{rel: e.Rel}
	}
	defer projectroot.CloseFd(fd)
	var bp *[]byte
	select {
	case bp = <-s.bufs:
	default:
		b := make([]byte, s.chunk)
		bp = &b
	}
	res := grepFile{rel: e.Rel}
	if !s.read(fd, bp, &res) {
		res = grepFile{rel: e.Rel}
	}
	if cap(*bp) <= 4*s.chunk { // a buffer grown for a long line is dropped
		select {
		case s.bufs <- bp:
		default:
		}
	}
	return res
}

// read reads the file fd chunk by chunk into *bp (growing it for a line
// longer than a chunk) and scans the complete lines of each; the last line
// of a chunk moves on to the next, so the last chunk ends where the file
// ends. It gives up (false) on a read error, or when the first 8 KB show
// a binary file. A short read means the end of a regular file, which
// saves the read that would return 0.
func (s *searcher) read(fd int, bp *[]byte, res *grepFile) bool {
	buf := (*bp)[:cap(*bp)]
	have, total, line := 0, 0, 1
	for {
		m, err := projectroot.ReadFd(fd, buf[have:])
		if err != nil {
			return false
		}
		if total < sniffLen && isBinary(buf[have:have+m]) {
			return false
		}
		have, total = have+m, total+m
		if have < len(buf) {
			s.scan(buf[:have], true, line, res)
			return true
		}
		cut := -1
		if !s.whole {
			cut = bytes.LastIndexByte(buf[:have-1], '\n')
		}
		if cut < 0 {
			buf = slices.Grow(buf, len(buf))[:2*len(buf)]
			*bp = buf
			continue
		}
		line = s.scan(buf[:cut+1], false, line, res)
		have = copy(buf, buf[cut+1:have])
	}
}

// scan finds the matching lines of data, whose first line is number line,
// and returns the number of the line after it. Unless final, data ends
// with a '\n' and the file goes on after it. It jumps from candidate to
// candidate (a required literal, else the next regexp match) instead of
// testing every line, and counts line numbers only up to each candidate.
// Every line counts as a match when the regexp matches it alone, however
// data is cut, since the regexp may run past a line only to be checked
// again within it.
func (s *searcher) scan(data []byte, final bool, line int, res *grepFile) int {
	useLits := s.plan.usable(data)
	var lits litCursor
	if useLits {
		lits = s.plan.cursor(data)
	}
	counted := 0
	for pos := 0; pos < len(data); {
		var at, end int
		if useLits {
			i, n := lits.index(pos)
			if i < 0 {
				break
			}
			at, end = i, i+n
		} else {
			w := s.windowEnd(data, pos)
			loc := s.re.FindIndex(data[pos:w])
			if loc == nil && w == len(data) {
				break
			}
			// An empty match at the end of the window (of a chunk not
			// final) is the start of the line after it: searched next.
			if loc == nil || pos+loc[0] == w && (w < len(data) || !final) {
				pos = w
				continue
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
		switch {
		case useLits && s.plan.anchored != nil:
			hit = s.plan.anchored.hit(&s.plan.finders[0], text, at-ls)
		case (useLits && !s.plan.pure) || (!useLits && end > le):
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
	if final {
		return line
	}
	return line + bytes.Count(data[counted:], []byte{'\n'})
}

// windowEnd is where the regexp's search from pos stops: after the line
// that reaches s.window bytes past pos, or the end of data.
func (s *searcher) windowEnd(data []byte, pos int) int {
	if s.whole || s.window <= 0 || len(data)-pos <= s.window {
		return len(data)
	}
	if i := bytes.IndexByte(data[pos+s.window:], '\n'); i >= 0 {
		return pos + s.window + i + 1
	}
	return len(data)
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
