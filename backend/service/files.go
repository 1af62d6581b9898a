package service

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"pilot/backend/projectroot"
	"pilot/backend/wire"
)

// Files shows a project's files: the tree, a preview, a search.
type Files struct{ *core }

// CheckExternalURL accepts only http(s) links for opening in a browser.
func CheckExternalURL(link string) error {
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("only http and https links open in the browser; %q is neither", link)
	}
	return nil
}

// previewLimit caps a file preview; the rest is marked truncated.
const previewLimit = 512 << 10

// Read returns a read-only preview of a file in the folder
// session sessionID works in (0: the project folder; see viewRoot): its
// text up to previewLimit, or a note that it is binary.
func (fs *Files) Read(ctx context.Context, projectID, sessionID int64, path string) (wire.FilePreview, error) {
	root, done, err := fs.viewRoot(ctx, projectID, sessionID)
	if err != nil {
		return wire.FilePreview{}, err
	}
	defer done()
	// Opened through the folder's root without waiting (a FIFO or a
	// device is refused, never read); the read below is bounded.
	f, st, p, err := root.OpenRead(path)
	if err != nil {
		return wire.FilePreview{}, fmt.Errorf("cannot open %s: %w", path, err)
	}
	defer f.Close()
	if st.IsDir() {
		return wire.FilePreview{}, fmt.Errorf("%s is a folder: open a file inside it", p.Rel)
	}
	buf, err := io.ReadAll(io.LimitReader(f, previewLimit))
	if err != nil {
		return wire.FilePreview{}, err
	}
	v := wire.FilePreview{Path: p.Rel, Size: st.Size(), Truncated: st.Size() > previewLimit}
	if isBinary(buf) {
		v.Binary = true
		return v, nil
	}
	v.Text = strings.ToValidUTF8(string(buf), "\uFFFD")
	return v, nil
}

func isBinary(b []byte) bool {
	sniff := b[:min(len(b), 8000)]
	if strings.IndexByte(string(sniff), 0) >= 0 {
		return true
	}
	ct := http.DetectContentType(sniff)
	return !strings.HasPrefix(ct, "text/") && !utf8.Valid(trimPartialRune(sniff))
}

// trimPartialRune drops a rune cut by the sniff limit.
func trimPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if utf8.Valid(b) {
			return b
		}
		b = b[:len(b)-1]
	}
	return b
}

// Find fuzzy-matches the file paths of the folder session sessionID
// works in (0: the project folder; see viewRoot) against query for the @
// picker: the characters of query in order, best matches first (a match in
// the file name, consecutive characters and short paths rank higher).
func (fs *Files) Find(ctx context.Context, projectID, sessionID int64, query string, limit int) ([]string, error) {
	root, done, err := fs.viewRoot(ctx, projectID, sessionID)
	if err != nil {
		return nil, err
	}
	defer done()
	if limit <= 0 {
		limit = 50
	}
	start, err := root.Resolve("")
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(query)
	var (
		mu   sync.Mutex
		best []fileMatch // the limit best so far, best first
	)
	err = root.Walk(ctx, start, func(e projectroot.Entry) {
		s, ok := fuzzyScore(strings.ToLower(e.Rel), q)
		if !ok {
			return
		}
		m := fileMatch{e.Rel, s}
		mu.Lock()
		defer mu.Unlock()
		if len(best) == limit && !m.before(best[limit-1]) {
			return
		}
		i := sort.Search(len(best), func(i int) bool { return m.before(best[i]) })
		if best = slices.Insert(best, i, m); len(best) > limit {
			best = best[:limit]
		}
	})
	return views(best, err, func(m fileMatch) string { return m.path })
}

// fileMatch is a path Files.Find matched, with its score.
type fileMatch struct {
	path  string
	score int
}

// before orders matches: higher scores first, then by path.
func (m fileMatch) before(o fileMatch) bool {
	if m.score != o.score {
		return m.score > o.score
	}
	return m.path < o.path
}

// fuzzyScore matches q's characters in order in path.
func fuzzyScore(path, q string) (int, bool) {
	if q == "" {
		return -len(path), true
	}
	base := strings.LastIndexByte(path, '/') + 1
	score, pi, prev := 0, 0, -2
	for _, r := range q {
		idx := strings.IndexRune(path[pi:], r)
		if idx < 0 {
			return 0, false
		}
		at := pi + idx
		switch {
		case at == prev+1:
			score += 8
		case at == base || (at > 0 && strings.ContainsRune("/._-", rune(path[at-1]))):
			score += 6
		}
		if at >= base {
			score += 3
		}
		prev, pi = at, at+utf8.RuneLen(r)
	}
	if strings.Contains(path[base:], q) {
		score += 20
	}
	return score*4 - len(path), true
}
