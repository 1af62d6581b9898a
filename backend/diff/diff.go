// Package diff turns a proposed file change into reviewable hunks, applies
// the hunks a user approved to produce the exact approved text, and says in
// words what was applied and what was refused.
//
// Lines are compared with github.com/sergi/go-diff in line mode. A hunk is a
// run of changed lines with up to Context unchanged lines around it; changes
// closer than 2*Context lines share a hunk. Hunks never overlap in the old
// text, so any subset of them can be applied independently.
package diff

import (
	"errors"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"

	"pilot/backend/wire"
)

// Context is the number of unchanged lines shown around each change.
const Context = 3

// ErrHunkCount is returned when a decision does not name every hunk.
var ErrHunkCount = errors.New("diff: the decision does not cover every hunk")

// Diff is the comparison of an old and a new text.
type Diff struct {
	old   []string // lines of the old text, each with its line ending
	hunks []hunk
}

// hunk is one reviewable piece: old lines [from, to) are replaced by repl.
type hunk struct {
	view     wire.Hunk
	from, to int
	repl     []string
}

// op is one line of the line-level edit script.
type op struct {
	kind wire.DiffLineKind
	line string
}

// Compute compares oldText with newText.
func Compute(oldText, newText string) *Diff {
	d := &Diff{old: SplitLines(oldText)}
	d.hunks = group(script(oldText, newText))
	return d
}

// Hunks returns the hunks for display, indexed from 0.
func (d *Diff) Hunks() []wire.Hunk {
	out := make([]wire.Hunk, len(d.hunks))
	for i, h := range d.hunks {
		out[i] = h.view
	}
	return out
}

// Len returns the number of hunks.
func (d *Diff) Len() int { return len(d.hunks) }

// Apply returns the old text with the hunks marked true in approved
// applied and the others left as they were. approved must have one entry
// per hunk.
func (d *Diff) Apply(approved []bool) (string, error) {
	if len(approved) != len(d.hunks) {
		return "", ErrHunkCount
	}
	var b strings.Builder
	at := 0
	for i, h := range d.hunks {
		if !approved[i] {
			continue
		}
		for _, l := range d.old[at:h.from] {
			b.WriteString(l)
		}
		for _, l := range h.repl {
			b.WriteString(l)
		}
		at = h.to
	}
	for _, l := range d.old[at:] {
		b.WriteString(l)
	}
	return b.String(), nil
}

// SplitLines splits s after every "\n"; the last line may lack one.
func SplitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// script returns the line-level edit script from oldText to newText.
func script(oldText, newText string) []op {
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToRunes(oldText, newText)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines)
	var ops []op
	for _, df := range diffs {
		kind := wire.LineContext
		switch df.Type {
		case diffmatchpatch.DiffDelete:
			kind = "del"
		case diffmatchpatch.DiffInsert:
			kind = "add"
		}
		for _, l := range SplitLines(df.Text) {
			ops = append(ops, op{kind: kind, line: l})
		}
	}
	return ops
}

// group cuts the edit script into hunks with Context lines around changes.
func group(ops []op) []hunk {
	var hunks []hunk
	oldNo := make([]int, len(ops)+1) // old lines consumed before ops[i]
	newNo := make([]int, len(ops)+1)
	for i, o := range ops {
		oldNo[i+1], newNo[i+1] = oldNo[i], newNo[i]
		if o.kind != "add" {
			oldNo[i+1]++
		}
		if o.kind != "del" {
			newNo[i+1]++
		}
	}
	for i := 0; i < len(ops); {
		if ops[i].kind == "context" {
			i++
			continue
		}
		start := max(0, i-Context)
		end := i // one past the last change of this hunk
		for j := i; j < len(ops); j++ {
			if ops[j].kind != "context" {
				end = j + 1
				continue
			}
			if j-end >= 2*Context {
				break
			}
		}
		stop := min(len(ops), end+Context)
		hunks = append(hunks, build(len(hunks), ops[start:stop], oldNo[start], newNo[start]))
		i = stop
	}
	return hunks
}

// build makes a hunk of ops whose first line follows oldBase old lines and
// newBase new lines.
func build(index int, ops []op, oldBase, newBase int) hunk {
	h := hunk{from: oldBase}
	v := wire.Hunk{Index: index}
	o, n := oldBase, newBase
	for _, x := range ops {
		dl := wire.DiffLine{Kind: x.kind, Text: strings.TrimSuffix(strings.TrimSuffix(x.line, "\n"), "\r")}
		if x.kind != "add" {
			o++
			v.OldLines++
			dl.OldNo = o
		}
		if x.kind != "del" {
			n++
			v.NewLines++
			dl.NewNo = n
			h.repl = append(h.repl, x.line)
		}
		v.Lines = append(v.Lines, dl)
	}
	h.to = o
	v.OldStart, v.NewStart = start(oldBase, v.OldLines), start(newBase, v.NewLines)
	h.view = v
	return h
}

// start is the unified-diff start line of a range after base lines: the
// first line of the range, or the line before an empty range.
func start(base, count int) int {
	if count == 0 {
		return base
	}
	return base + 1
}
