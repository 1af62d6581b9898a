package diff

import (
	"fmt"
	"strconv"
	"strings"

	"pilot/backend/wire"
)

// Describe tells the model what became of a change's hunks, e.g.
// "applied hunks 1 and 3 of 3; rejected hunk 2 (lines 40-52): use a map".
// Hunks are numbered from 1 as people count them; line ranges are those of
// the file before the change. feedback, when set, closes the sentence.
func Describe(hunks []wire.Hunk, approved []bool, feedback string) string {
	var yes, no []int
	for i := range hunks {
		if i < len(approved) && approved[i] {
			yes = append(yes, i)
		} else {
			no = append(no, i)
		}
	}
	total := len(hunks)
	var parts []string
	switch {
	case total == 0:
		parts = append(parts, "nothing to change: the proposed text equals the file")
	case total == 1 && len(yes) == 1:
		parts = append(parts, "applied hunk 1 of 1")
	case total == 1:
		parts = append(parts, "rejected hunk 1 of 1 ("+Lines(hunks[0])+")")
	case len(no) == 0:
		parts = append(parts, fmt.Sprintf("applied all %d hunks", total))
	case len(yes) == 0:
		parts = append(parts, fmt.Sprintf("rejected all %d hunks", total))
	default:
		parts = append(parts, fmt.Sprintf("applied %s of %d", numbered(yes, hunks, false), total))
	}
	if len(no) > 0 && len(yes) > 0 {
		parts = append(parts, "rejected "+numbered(no, hunks, true))
	}
	s := strings.Join(parts, "; ")
	if feedback = strings.TrimSpace(feedback); feedback != "" {
		s += ": " + feedback
	}
	return s
}

// Lines describes where a hunk sits in the old file: "lines 40-52",
// "line 7", or "after line 12" for a pure insertion.
func Lines(h wire.Hunk) string {
	switch h.OldLines {
	case 0:
		if h.OldStart == 0 {
			return "at the start of the file"
		}
		return fmt.Sprintf("after line %d", h.OldStart)
	case 1:
		return fmt.Sprintf("line %d", h.OldStart)
	}
	return fmt.Sprintf("lines %d-%d", h.OldStart, h.OldStart+h.OldLines-1)
}

// numbered lists hunk numbers: "hunk 2 (lines 40-52)" or "hunks 1 and 3".
func numbered(idx []int, hunks []wire.Hunk, where bool) string {
	items := make([]string, len(idx))
	for k, i := range idx {
		items[k] = strconv.Itoa(i + 1)
		if where {
			items[k] += " (" + Lines(hunks[i]) + ")"
		}
	}
	word := "hunk "
	if len(idx) > 1 {
		word = "hunks "
	}
	return word + and(items)
}

func and(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
