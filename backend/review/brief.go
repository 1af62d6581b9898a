package review

import (
	"fmt"
	"strings"

	"pilot/backend/wire"
)

// brief is the reviewer's first message: what is reviewed and the diff,
// every line numbered as in the file now, cut at diffChars.
func brief(t Target) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Review %s: %d changed files. Report each problem with report_finding on its line, then end with a sentence.\n\n", t.What, len(t.Files))
	for _, f := range t.Files {
		if b.Len() > diffChars {
			fmt.Fprintf(&b, "\n[... the diff is cut at %d characters: read the other changed files with read_file]\n", diffChars)
			break
		}
		fmt.Fprintf(&b, "=== %s\n", f.Path)
		for _, h := range f.Hunks {
			if h.Note != "" {
				fmt.Fprintf(&b, "(%s)\n", h.Note)
				continue
			}
			fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
			for _, l := range h.Lines {
				switch l.Kind {
				case wire.LineAdd:
					fmt.Fprintf(&b, "+%5d | %s\n", l.NewNo, l.Text)
				case wire.LineDel:
					fmt.Fprintf(&b, "-      | %s\n", l.Text)
				default:
					fmt.Fprintf(&b, " %5d | %s\n", l.NewNo, l.Text)
				}
			}
		}
	}
	return b.String()
}
