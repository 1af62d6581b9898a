package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pilot/backend/projectroot"
	"pilot/backend/toolname"
)

// maxListEntries caps a list_files answer.
const maxListEntries = 200

// ListFilesParams is the input of list_files.
type ListFilesParams struct {
	Path string `json:"path,omitempty" desc:"Folder to list, relative to the project root. Default: the project root (\".\")."`
}

func labelListFiles(p ListFilesParams) string {
	if p.Path == "" || p.Path == "." || p.Path == "./" {
		return "→ Listing files: . (current directory)"
	}
	return "→ Listing files: " + p.Path
}

func listFiles(_ context.Context, d Deps, p ListFilesParams) (Result, error) {
	l, err := d.Root.ListDir(p.Path)
	if err != nil {
		if pe := (*projectroot.PathError)(nil); errors.As(err, &pe) {
			return errorf("%s", pe.Msg), nil
		}
		return Result{}, err
	}
	held := 0
	kept := l.Entries[:0]
	for _, e := range l.Entries {
		if d.withheld(toolname.ListFiles, e.Path) {
			held++
			continue
		}
		kept = append(kept, e)
	}
	l.Entries = kept
	var b strings.Builder
	dirs := 0
	for _, e := range l.Entries {
		if e.IsDir {
			dirs++
		}
	}
	fmt.Fprintf(&b, "%s (%s, %s)\n", displayDir(l.Dir.Rel), plural(dirs, "folder"), plural(len(l.Entries)-dirs, "file"))
	for i, e := range l.Entries {
		if i == maxListEntries {
			fmt.Fprintf(&b, "... and %d more\n", len(l.Entries)-maxListEntries)
			break
		}
		name := e.Name
		if e.IsDir {
			name += "/"
		}
		switch {
		case e.IsLink:
			fmt.Fprintf(&b, "  %s -> %s (link)\n", name, e.Target)
		case e.IsDir:
			fmt.Fprintf(&b, "  %s\n", name)
		default:
			fmt.Fprintf(&b, "  %s  %s\n", name, formatSize(e.Size))
		}
	}
	if len(l.Entries) == 0 {
		b.WriteString("  (empty)\n")
	}
	if l.Ignored > 0 {
		fmt.Fprintf(&b, "(%s not shown: .git or ignored by .gitignore/.pilotignore; read_file still opens them by path)\n", plural(l.Ignored, "entry"))
	}
	if held > 0 {
		b.WriteString(withheldNote(held) + "\n")
	}
	return Result{Output: strings.TrimRight(b.String(), "\n")}, nil
}

// displayDir writes a folder for the model: "./" for the root, "src/".
func displayDir(rel string) string {
	if rel == "." {
		return "./"
	}
	return rel + "/"
}
