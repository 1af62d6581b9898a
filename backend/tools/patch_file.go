package tools

import (
	"context"
	"fmt"

	"pilot/backend/diff"
	"pilot/backend/toolname"
)

// PatchFileParams is the input of patch_file.
type PatchFileParams struct {
	Path       string `json:"path" desc:"File to change, relative to the project root."`
	OldText    string `json:"old_text" desc:"Exact text to replace, with its white space and indentation, without read_file's line numbers. Must occur exactly once unless replace_all is true."`
	NewText    string `json:"new_text" desc:"Text to put in its place (empty to delete old_text)."`
	ReplaceAll bool   `json:"replace_all,omitempty" desc:"Replace every occurrence of old_text instead of requiring exactly one. Default: false."`
}

func labelPatchFile(p PatchFileParams) string {
	what := p.Path
	if g := diff.Gist(p.OldText, p.NewText); g != "" {
		what += ": " + g
	}
	return fmt.Sprintf("→ Patching file: %s (%s)", what, sizeDelta(len(p.NewText)-len(p.OldText)))
}

// sizeDelta says how many bytes a change adds or removes: "+12 bytes",
// "-3 bytes", or "same size" (a same-length edit is not "+0 bytes").
func sizeDelta(n int) string {
	if n == 0 {
		return "same size"
	}
	return fmt.Sprintf("%+d bytes", n)
}

func patchFile(_ context.Context, d Deps, p PatchFileParams) (Result, error) {
	t, err := loadTarget(d, p.Path, true)
	if err != nil {
		return resolveErr(err)
	}
	text, msg := t.replaceOnce(t.text, p.OldText, p.NewText, p.ReplaceAll)
	if msg != "" {
		return errorf("%s", msg), nil
	}
	c := t.change(text)
	return Result{
		Output:   fmt.Sprintf("Proposed: patch %s (%+d bytes).", c.Path, len(c.NewContent)-len(c.OldContent)),
		Proposal: &Proposal{Tool: toolname.PatchFile, Files: []FileChange{c}},
	}, nil
}
