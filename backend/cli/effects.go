package cli

import (
	"fmt"
	"io"
	"slices"

	"pilot/backend/cli/visible"
	"pilot/backend/wire"
)

// effectsShown is the most files pilot -p lists under a command;
// runsCodeShown the most of those that can run code, which come first and
// are listed beyond effectsShown (an npm install makes hundreds of
// node_modules/.bin entries).
const (
	effectsShown  = 20
	runsCodeShown = 50
)

// printEffects lists the files a command changed under its → line: those
// that can run code first, each file marked when it can run code and when
// it is not kept (it cannot be undone), then the card's note.
func printEffects(w io.Writer, e *wire.CommandEffects) {
	files := slices.Clone(e.Files)
	slices.SortStableFunc(files, func(a, b wire.FileEffect) int {
		return boolRank(a.RunsCode == "") - boolRank(b.RunsCode == "")
	})
	runs := 0
	for _, f := range files {
		if f.RunsCode != "" {
			runs++
		}
	}
	for i, f := range files {
		if (f.RunsCode == "" && i >= effectsShown) || i == runsCodeShown {
			more := fmt.Sprintf("%d more", len(files)-i)
			if left := runs - i; left > 0 {
				more += fmt.Sprintf(", %d of them can run code", left)
			}
			fmt.Fprintf(w, "  ... and %s (pilot sessions changes lists them all)\n", more)
			break
		}
		fmt.Fprintln(w, "  "+effectLine(f))
	}
	if e.Note != "" {
		fmt.Fprintf(w, "  %s\n", visible.Line(e.Note))
	}
}

// effectLine is one file a command changed, with its marks:
// "created sub/.git/hooks/post-checkout  [can run code: a git hook] [not kept, cannot be undone]".
func effectLine(f wire.FileEffect) string {
	line := string(f.Op) + " " + visible.Line(f.Path)
	if f.Folder {
		line += "/"
	}
	if f.RunsCode != "" {
		line += "  [can run code: " + f.RunsCode + "]"
	}
	if !f.Kept {
		line += " [not kept, cannot be undone]"
	}
	return line
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// netLine is a file's net effect over a session, with its marks.
func netLine(f wire.LedgerFile) string {
	kind := string(f.Kind)
	if kind == "" {
		kind = "restored"
	}
	line := fmt.Sprintf("%-8s %s", kind, visible.Line(f.Path))
	if f.RunsCode != "" {
		line += "  [can run code: " + f.RunsCode + "]"
	}
	if f.Listed {
		line += " [not kept, cannot be undone]"
	}
	return line
}
