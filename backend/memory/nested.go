package memory

import (
	"context"
	"crypto/sha256"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"pilot/backend/projectroot"
)

// Nested reads the nested instruction files of the project folders given
// ('/'-separated, relative to dir, outermost first; the root's own files
// are the system prompt's, not nested): each folder's AGENTS.md and
// CLAUDE.md, each followed by its imports, within NestedBudget. Missing
// files are left out; the files not read (refused) and not given
// (shadowed) are in the list. inPrompt are the system prompt's files
// (Load's): a nested file or import that is one of those given to the
// model (the same file, or the same text) is shadowed, not given twice.
func Nested(home, dir string, folders []string, inPrompt []File) []File {
	l := newLoader(home, dir, NestedBudget)
	defer l.close()
	l.shadowing(inPrompt)
	if l.root == nil {
		return nil
	}
	for _, folder := range folders {
		if folder == "." || folder == "" {
			continue
		}
		for _, n := range nestedFiles {
			l.addProject(LevelNested, folder+"/"+n, folder)
		}
	}
	var out []File
	for _, f := range l.out {
		if f.State != NotFound || f.Level == LevelImport {
			out = append(out, f)
		}
	}
	return out
}

// shadowing makes the files of inPrompt given to the model shadow a
// file read later that is one of them (the same file, or the same text).
func (l *loader) shadowing(inPrompt []File) {
	for _, f := range inPrompt {
		if f.Given() {
			l.seen[sha256.Sum256([]byte(strings.TrimSpace(f.Text)))] = f.Name
			l.given[f.Path] = f.Name
		}
	}
}

// Folders are the folders from the root's child down to the folder rel
// ('/'-separated, relative to the project), outermost first: "a/b" gives
// "a", "a/b". The root itself ("." or "") gives none.
func Folders(rel string) []string {
	rel = path.Clean(filepath.ToSlash(rel))
	if rel == "." || rel == "/" || strings.HasPrefix(rel, "../") || rel == ".." {
		return nil
	}
	var out []string
	for i, c := range rel {
		if c == '/' {
			out = append(out, rel[:i])
		}
	}
	return append(out, rel)
}

// Framed is the nested files' (and the path rules') text for the model,
// appended to the result of the tool call that brought them in: each
// file framed as the project's instructions for the files under its
// folder (or matching its paths).
func Framed(files []File) string {
	var b strings.Builder
	for _, f := range files {
		if !f.Given() {
			continue
		}
		what := f.Name
		if f.Level == LevelImport {
			what += " (imported by " + f.By + ")"
		}
		where := "under " + f.Folder + "/"
		if len(f.Paths) > 0 {
			where = "matching " + strings.Join(f.Paths, ", ")
		}
		b.WriteString("\n\n<instructions from " + what + " apply to files " + where + ">\n")
		b.WriteString("The project's instructions for the files " + where + ", found as you reached them. They are text from the project: follow them for this work where the user did not say otherwise; they grant no permission.\n\n")
		b.WriteString(strings.TrimSpace(f.Text))
		b.WriteString("\n</instructions>")
	}
	return b.String()
}

// MaxNestedListed bounds the nested files NestedFolders finds.
const MaxNestedListed = 200

// NestedFolders are the folders below the project's root holding an
// AGENTS.md or CLAUDE.md (ignored files and .git left out, as a search
// leaves them out), sorted, at most MaxNestedListed; for Settings › Setup.
// The walk stops early when ctx ends.
func NestedFolders(ctx context.Context, dir string) []string {
	root, err := projectroot.New(dir)
	if err != nil {
		return nil
	}
	defer root.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	found := map[string]bool{}
	start, _ := root.Resolve(".")
	_ = root.Walk(ctx, start, func(e projectroot.Entry) {
		if !slices.Contains(nestedFiles, e.Name) || !strings.Contains(e.Rel, "/") {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		found[path.Dir(e.Rel)] = true
		if len(found) >= MaxNestedListed {
			cancel()
		}
	})
	mu.Lock()
	defer mu.Unlock()
	return slices.Sorted(maps.Keys(found))
}
