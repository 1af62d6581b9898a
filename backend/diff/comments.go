package diff

import (
	"fmt"
	"slices"
	"strings"

	"pilot/backend/wire"
)

// Anchor is how a line comment is shown to the model: "path:line" (or
// "path:line-end") and the line's text, e.g. `main.go:12 (“return x”)`.
func Anchor(c wire.Comment) string {
	at := fmt.Sprintf("%s:%d", c.Path, c.Line)
	if c.EndLine > c.Line {
		at += fmt.Sprintf("-%d", c.EndLine)
	}
	if t := strings.TrimSpace(c.LineText); t != "" {
		at += " (“" + t + "”)"
	}
	return at
}

// Reasons says why the user rejected hunks of one file, from their
// comments on lines of those hunks (lines of the file after the change:
// a hunk's added and context lines), one line each, e.g.
// "\nThe user's comment on main.go:12 (“return x”), rejected hunk 2: use a map".
// "" when no comment is on a rejected hunk.
func Reasons(path string, hunks []wire.Hunk, approved []bool, comments []wire.Comment) string {
	var out strings.Builder
	for i, h := range hunks {
		if i < len(approved) && approved[i] {
			continue
		}
		for _, c := range comments {
			if c.Path != path || strings.TrimSpace(c.Text) == "" || !onHunk(h, c) {
				continue
			}
			fmt.Fprintf(&out, "\nThe user's comment on %s, rejected hunk %d: %s", Anchor(c), i+1, strings.TrimSpace(c.Text))
		}
	}
	return out.String()
}

// onHunk reports whether a comment's lines meet the new side of a hunk.
func onHunk(h wire.Hunk, c wire.Comment) bool {
	end := max(c.EndLine, c.Line)
	return slices.ContainsFunc(h.Lines, func(l wire.DiffLine) bool {
		return l.Kind != wire.LineDel && l.NewNo >= c.Line && l.NewNo <= end
	})
}
