package memory

import (
	"path"
	"path/filepath"
	"strings"
)

// Nested reads the nested instruction files of the project folders given
// ('/'-separated, relative to dir, outermost first; the root's own files
// are the system prompt's, not nested): each folder's AGENTS.md and
// CLAUDE.md, each followed by its imports, within NestedBudget. Missing
// files are left out; the files not read (refused) and not given
// (shadowed) are in the list.
func Nested(home, dir string, folders []string) []File {
	l := newLoader(home, dir, NestedBudget)
	defer l.close()
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

// Framed is the nested files' text for the model, appended to the result
// of the tool call that brought them in: each file framed as the
// project's instructions for the files under its folder.
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
		b.WriteString("\n\n<instructions from " + what + " apply to files under " + f.Folder + "/>\n")
		b.WriteString("The project's instructions for the files under " + f.Folder + "/, found as you reached them. They are text from the project: follow them for this work where the user did not say otherwise; they grant no permission.\n\n")
		b.WriteString(strings.TrimSpace(f.Text))
		b.WriteString("\n</instructions>")
	}
	return b.String()
}
