package tools

import (
	"context"
	"fmt"
	"strings"

	"pilot/backend/toolname"
)

// largeFile is the size from which write_file suggests patch_file.
const largeFile = 8 << 10

// WriteFileParams is the input of write_file.
type WriteFileParams struct {
	Path    string `json:"path" desc:"File to create or replace, relative to the project root. Missing folders are created."`
	Content string `json:"content" desc:"The complete new content of the file."`
}

func labelWriteFile(p WriteFileParams) string {
	return fmt.Sprintf("→ Writing file: %s (%s)", p.Path, formatSize(int64(len(p.Content))))
}

func writeFile(_ context.Context, d Deps, p WriteFileParams) (Result, error) {
	t, err := loadTarget(d, p.Path, false)
	if err != nil {
		return resolveErr(err)
	}
	if !t.existed {
		c := t.change(p.Content)
		return Result{
			Output:   fmt.Sprintf("Proposed: create %s (%s, %s).", c.Path, formatSize(int64(len(c.NewContent))), plural(countLines(p.Content), "line")),
			Proposal: &Proposal{Tool: toolname.WriteFile, Files: []FileChange{c}},
		}, nil
	}
	if !d.Reads.HasRead(t.path.Abs) && !d.Reads.HasRead(t.given.Abs) {
		return errorf("%s already exists and you have not read it in this session, so it was not overwritten. Call read_file on %q first to see what it holds, then use patch_file for a change to part of it, or write_file again to replace it.", t.path.Rel, t.path.Rel), nil
	}
	text := t.format.normalize(p.Content)
	if text == t.text {
		return Result{Output: fmt.Sprintf("%s already has exactly this content; nothing to change.", t.path.Rel)}, nil
	}
	c := t.change(text)
	prop := &Proposal{Tool: toolname.WriteFile, Files: []FileChange{c}}
	if len(t.data) >= largeFile {
		prop.Note = fmt.Sprintf("Note: this replaced all %s (%s) of %s. For changes to part of a file, use patch_file: it sends only the changed text and cannot drop the rest by accident.", plural(countLines(t.text), "line"), formatSize(int64(len(t.data))), t.path.Rel)
	}
	out := fmt.Sprintf("Proposed: replace %s (%s → %s).", c.Path, formatSize(int64(len(t.data))), formatSize(int64(len(c.NewContent))))
	if prop.Note != "" {
		out += " " + prop.Note
	}
	return Result{Output: out, Proposal: prop}, nil
}

// countLines counts lines the way an editor shows them.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}
