package agent

import (
	"fmt"
	"strings"

	"pilot/backend/store"
	"pilot/backend/wire"
)

// storeHunks converts hunks to the store's unified form, all pending.
func storeHunks(hs []wire.Hunk) []store.Hunk {
	out := make([]store.Hunk, len(hs))
	for i, h := range hs {
		var b strings.Builder
		for j, l := range h.Lines {
			if j > 0 {
				b.WriteByte('\n')
			}
			switch l.Kind {
			case "add":
				b.WriteByte('+')
			case "del":
				b.WriteByte('-')
			default:
				b.WriteByte(' ')
			}
			b.WriteString(l.Text)
		}
		out[i] = store.Hunk{
			Header:   fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines),
			Text:     b.String(),
			Decision: store.HunkPending,
		}
	}
	return out
}
