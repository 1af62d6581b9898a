package agent

import (
	"context"
	"encoding/json"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"pilot/backend/memory"
	"pilot/backend/store"
	"pilot/backend/toolname"
	"pilot/backend/wire"
)

// Nested instruction files (a subfolder's AGENTS.md or CLAUDE.md, and
// their imports) are not in the system prompt: the first time in a
// session the agent reads or changes a file below one (read_file,
// write_file, patch_file, multi_patch, or list_files of its folder), its
// text is added to that call's result for the model, framed as the
// project's instructions for the files under its folder (memory.Framed),
// and the call's card says so (wire.ToolCall.Instructions). A rule of
// .claude/rules whose front matter names paths: (memory.PathRules) comes
// the same way, with the first read or change of a file matching one of
// its globs (not a listing). Each file is
// brought in once per session: the names are stored with the call
// (ToolCalls.SetInstructions), and a resumed session reads them back.
// Once the result that carried one is out of what the model is sent (a
// compaction summarised it, or its output was elided to save context),
// the file counts as not brought in: the next call below it brings it in
// again (forget). The text is put before the tool's output, so that an
// output cut to fit the window (elideOversized keeps its start) keeps it.

// nestedState is a session's nested instruction files: the folders
// already looked at in this process, and the files brought in (read from
// the store at the first call).
type nestedState struct {
	mu      sync.Mutex
	read    bool // brought was read from the store
	checked map[string]bool
	brought map[string]bool
}

// bringsInstructions are the tools whose files bring in nested
// instruction files.
var bringsInstructions = []string{toolname.ReadFile, toolname.WriteFile, toolname.PatchFile, toolname.MultiPatch, toolname.ListFiles}

// bringInstructions adds to a done call's result the nested instruction
// files of the folders it reached that the session has not had yet. A
// custom agent's call brings none (its own conversation is not the
// session's), nor does a failed or refused one.
func (t *turn) bringInstructions(ctx context.Context, r *toolRun) {
	if r.parent != "" || r.out.status != wire.ToolDone || !slices.Contains(bringsInstructions, r.use.Name) {
		return
	}
	l := t.l
	paths := reachedPaths(l, r.use.Name, r.use.Input)
	var found []memory.File
	if folders := l.unlooked(ctx, reachedFolders(r.use.Name, paths)); len(folders) > 0 {
		found = memory.Nested(l.m.opt.Sandbox.home(), l.root.Dir(), folders, t.instructions)
	}
	if r.use.Name != toolname.ListFiles {
		for _, p := range paths {
			found = append(found, memory.Matching(t.pathRules, p)...)
		}
	}
	if len(found) == 0 {
		return
	}
	var given []memory.File
	var names []string
	for _, f := range l.newNested(found) {
		switch {
		case f.State == memory.Refused:
			l.m.log.Warn("nested instruction file not read", "session", l.id, "file", f.Name, "why", f.Why)
			l.notice("files", f.Why, 0)
		case f.Given():
			given = append(given, f)
			names = append(names, f.Name)
		}
	}
	if len(given) == 0 {
		return
	}
	r.out.text = strings.TrimPrefix(memory.Framed(given), "\n\n") + "\n\n" + r.out.text
	r.view.Instructions = names
	js, _ := json.Marshal(names)
	if err := l.m.st.ToolCalls.SetRecord(ctx, r.rec.ID, store.RecordInstructions, string(js)); err != nil {
		l.m.log.Warn("saving the call's instruction files", "session", l.id, "err", err)
	}
}

// reachedPaths are the project paths (relative, '/'-separated) of the
// files a call read or changed, or of the folder list_files listed ("."
// for the root).
func reachedPaths(l *live, name string, input json.RawMessage) []string {
	var in struct {
		Path  string `json:"path"`
		Edits []struct {
			Path string `json:"path"`
		} `json:"edits"`
	}
	_ = json.Unmarshal(input, &in) // the call is done: its input was good
	paths := []string{in.Path}
	for _, e := range in.Edits {
		paths = append(paths, e.Path)
	}
	var out []string
	for _, p := range paths {
		if p == "" && name != toolname.ListFiles {
			continue
		}
		if at, err := l.root.Resolve(p); err == nil && !slices.Contains(out, at.Rel) {
			out = append(out, at.Rel)
		}
	}
	return out
}

// reachedFolders are the project folders from the root's child down to
// the folder of each path a call reached (the folder itself for
// list_files).
func reachedFolders(name string, paths []string) []string {
	var out []string
	for _, p := range paths {
		folder := p
		if name != toolname.ListFiles {
			folder = path.Dir(p)
		}
		for _, f := range memory.Folders(folder) {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// unlooked are the folders not looked at yet in this process, now
// marked looked at, outermost first.
func (l *live) unlooked(ctx context.Context, folders []string) []string {
	n := &l.nested
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.read {
		n.read, n.checked, n.brought = true, map[string]bool{}, map[string]bool{}
		l.mu.Lock()
		var since int64
		if l.summary != nil {
			since = l.summary.keep
		}
		elided := maps.Clone(l.elided)
		l.mu.Unlock()
		had, err := l.m.st.ToolCalls.Instructions(ctx, l.id, since)
		if err != nil {
			l.m.log.Warn("reading the instruction files brought in", "session", l.id, "err", err)
		}
		for _, b := range had {
			if !elided[b.ToolUseID] {
				n.brought[b.Name] = true
			}
		}
	}
	var out []string
	for _, f := range folders {
		if !n.checked[f] {
			n.checked[f] = true
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return depth(a) - depth(b) })
	return out
}

// forget makes the session read again which nested files the model
// still has (after a compaction or an elision).
func (n *nestedState) forget() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.read = false
}

// newNested are the files the session has not had, now marked had.
func (l *live) newNested(files []memory.File) []memory.File {
	n := &l.nested
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []memory.File
	for _, f := range files {
		if !n.brought[f.Name] {
			n.brought[f.Name] = true
			out = append(out, f)
		}
	}
	return out
}

// depth is the number of folders in a relative path.
func depth(rel string) int {
	d := 1
	for _, c := range rel {
		if c == '/' {
			d++
		}
	}
	return d
}
