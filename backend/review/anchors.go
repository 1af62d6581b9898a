package review

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"pilot/backend/wire"
)

// maxFindingText bounds a finding's text (runes are not split: the cut is
// at a byte boundary of a valid UTF-8 string via strings.ToValidUTF8).
const maxFindingText = 2000

// anchors are the lines a finding may sit on: for each changed file, the
// lines of its hunks in the file as it is now (added and context lines),
// and of those the added ones, where a misplaced finding is moved to.
type anchors map[string]fileLines

type fileLines struct {
	shown map[int]string // every line of the file the diff shows, with its text
	added []int          // the added lines, ascending
}

// anchorsOf reads the anchors of the reviewed files.
func anchorsOf(files []wire.FileChange) anchors {
	a := anchors{}
	for _, f := range files {
		fl := fileLines{shown: map[int]string{}}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.NewNo == 0 {
					continue
				}
				fl.shown[l.NewNo] = l.Text
				if l.Kind == wire.LineAdd {
					fl.added = append(fl.added, l.NewNo)
				}
			}
		}
		sort.Ints(fl.added)
		a[f.Path] = fl
	}
	return a
}

// place checks a finding against the changes (and gives it its line's
// text): it is kept on its line
// when the diff shows that line, moved to the nearest added line of its
// file when it does not (note says so), and dropped (ok false, note
// says why) when the file is not among the changes, the file has no
// lines to anchor on, or the text is empty.
func (a anchors) place(f wire.ReviewFinding) (out wire.ReviewFinding, note string, ok bool) {
	f.Path = strings.TrimPrefix(path.Clean(strings.ReplaceAll(strings.TrimSpace(f.Path), "\\", "/")), "./")
	f.Text = strings.TrimSpace(strings.ToValidUTF8(f.Text, "\uFFFD"))
	if len(f.Text) > maxFindingText {
		f.Text = strings.ToValidUTF8(f.Text[:maxFindingText], "") + "…"
	}
	if f.Text == "" {
		return f, fmt.Sprintf("A finding on %s:%d was dropped: its text is empty.", f.Path, f.Line), false
	}
	fl, known := a[f.Path]
	if !known {
		return f, fmt.Sprintf("A finding on %s:%d was dropped: %s is not among the reviewed changes (%s).", f.Path, f.Line, f.Path, a.names()), false
	}
	if text, ok := fl.shown[f.Line]; ok {
		f.LineText = text
		return f, "", true
	}
	if len(fl.added) == 0 {
		return f, fmt.Sprintf("A finding on %s:%d was dropped: the changes of %s have no lines to comment on (a deleted, binary or empty file).", f.Path, f.Line, f.Path), false
	}
	near := fl.added[0]
	for _, n := range fl.added {
		if abs(n-f.Line) < abs(near-f.Line) {
			near = n
		}
	}
	note = fmt.Sprintf("A finding on %s:%d was moved to line %d, the nearest changed line: line %d is not in the changes.", f.Path, f.Line, near, f.Line)
	f.Line, f.LineText = near, fl.shown[near]
	return f, note, true
}

// names lists the changed files for a sentence.
func (a anchors) names() string {
	names := make([]string, 0, len(a))
	for p := range a {
		names = append(names, p)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "there are none"
	}
	if len(names) > 10 {
		return "the changed files are " + strings.Join(names[:10], ", ") + fmt.Sprintf(" and %d more", len(names)-10)
	}
	return "the changed files are " + strings.Join(names, ", ")
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
