package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"pilot/backend/toolname"
)

// MultiPatchParams is the input of multi_patch.
type MultiPatchParams struct {
	Edits []PatchEdit `json:"edits" desc:"Edits in the order to apply them; later edits of the same file see the result of earlier ones."`
}

// PatchEdit is one edit of multi_patch.
type PatchEdit struct {
	Path    string `json:"path" desc:"File to change, relative to the project root."`
	OldText string `json:"old_text" desc:"Exact text to replace; must occur exactly once in the file at that point."`
	NewText string `json:"new_text" desc:"Text to put in its place (empty to delete)."`
}

func labelMultiPatch(p MultiPatchParams) string {
	var paths []string
	delta := 0
	for _, e := range p.Edits {
		if !slices.Contains(paths, e.Path) {
			paths = append(paths, e.Path)
		}
		delta += len(e.NewText) - len(e.OldText)
	}
	if len(paths) == 1 {
		return fmt.Sprintf("→ Patching file: %s (%s, %s)", paths[0], plural(len(p.Edits), "edit"), sizeDelta(delta))
	}
	return fmt.Sprintf("→ Patching %s: %s (%s, %s)", plural(len(paths), "file"), strings.Join(paths, ", "), plural(len(p.Edits), "edit"), sizeDelta(delta))
}

func multiPatch(_ context.Context, d Deps, p MultiPatchParams) (Result, error) {
	if len(p.Edits) == 0 {
		return errorf("edits is empty. Give at least one {\"path\", \"old_text\", \"new_text\"}."), nil
	}
	type file struct {
		t    *editTarget
		text string
	}
	var files []*file // in order of first edit
	byAbs := map[string]*file{}
	for i, e := range p.Edits {
		fail := func(msg string) (Result, error) {
			return errorf("Edit %d of %d (%s) failed, so none of the edits were applied: %s", i+1, len(p.Edits), e.Path, msg), nil
		}
		failErr := func(err error) (Result, error) {
			r, err := resolveErr(err)
			if err != nil {
				return r, err
			}
			return fail(r.Output)
		}
		rp, err := d.Root.ResolveWrite(e.Path)
		if err != nil {
			return failErr(err)
		}
		f := byAbs[rp.Abs]
		if f == nil {
			t, err := loadTarget(d, e.Path, true)
			if err != nil {
				return failErr(err)
			}
			f = &file{t: t, text: t.text}
			byAbs[rp.Abs] = f
			files = append(files, f)
		}
		text, msg := f.t.replaceOnce(f.text, e.OldText, e.NewText, false)
		if msg != "" {
			if i > 0 && f.text != f.t.text {
				msg += " (Earlier edits of this file in the same call were taken into account.)"
			}
			return fail(msg)
		}
		f.text = text
	}
	prop := &Proposal{Tool: toolname.MultiPatch}
	var names []string
	for _, f := range files {
		c := f.t.change(f.text)
		prop.Files = append(prop.Files, c)
		names = append(names, fmt.Sprintf("%s (%+d bytes)", c.Path, len(c.NewContent)-len(c.OldContent)))
	}
	return Result{
		Output:   fmt.Sprintf("Proposed: %s in %s: %s.", plural(len(p.Edits), "edit"), plural(len(files), "file"), strings.Join(names, ", ")),
		Proposal: prop,
	}, nil
}
