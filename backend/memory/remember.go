package memory

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"pilot/backend/projectroot"
)

// UserFile is the user's own instruction file that "remember for every
// project" adds to: the first of ~/.claude/CLAUDE.md and
// ~/.codex/AGENTS.md that is a file (links followed, as the user made
// them), else ~/.claude/CLAUDE.md, made by the first line remembered.
// name is how the user knows it ("~/.claude/CLAUDE.md").
func UserFile(home string) (name, abs string) {
	for _, n := range userFiles {
		p := filepath.Join(home, n)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return "~/" + n, p
		}
	}
	return "~/" + userFiles[0], filepath.Join(home, userFiles[0])
}

// ProjectFile is the project's instruction file that "remember for this
// project" (/remember) adds to: AGENTS.md, or CLAUDE.md when the project
// has that one and no AGENTS.md (as the command's text tells the model).
// It only names the file: nothing of the folder is read.
func ProjectFile(dir string) string {
	has := func(name string) bool {
		fi, err := os.Lstat(filepath.Join(dir, name))
		return err == nil && (fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0)
	}
	if !has(projectFiles[0]) && has(projectFiles[1]) {
		return projectFiles[1]
	}
	return projectFiles[0]
}

// RememberLine is text as one line to remember: its lines joined with
// spaces, runs of spaces made one, a list marker the model gave dropped.
func RememberLine(text string) string {
	line := strings.Join(strings.Fields(text), " ")
	for _, m := range []string{"- ", "* ", "+ "} {
		line = strings.TrimPrefix(line, m)
	}
	return strings.TrimSpace(line)
}

// WithLine is text with line added at its end as a list item ("- line"),
// after a blank line unless the text already ends with a list; changed
// is false when a line of text already says exactly that.
func WithLine(text, line string) (out string, changed bool) {
	item := "- " + line
	for l := range strings.SplitSeq(text, "\n") {
		if strings.TrimSpace(l) == item {
			return text, false
		}
	}
	if text == "" {
		return item + "\n", true
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if !strings.HasPrefix(last, "- ") && !strings.HasPrefix(last, "* ") {
		text = strings.TrimRight(text, "\n") + "\n\n"
	}
	return text + item + "\n", true
}

// userFileKind is the user's own instruction file as ReadUser reads it.
var userFileKind = projectroot.Kind{Name: "an instruction file", Limit: 1 << 20, Fix: "shorten it, or add the line yourself"}

// ReadUser reads the user's own instruction file at abs
// (projectroot.ReadUserFile: links followed, a regular file only, opened
// without waiting, at most 1 MiB): its text, whether it exists, and its
// permission bits (0644 for a file to make). A refusal is a sentence.
func ReadUser(abs string) (text string, existed bool, mode os.FileMode, err error) {
	b, perm, err := projectroot.ReadUserFileMode(abs, userFileKind)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false, 0o644, nil
	case err != nil:
		return "", false, 0, err
	}
	return string(b), true, perm, nil
}

// WriteUser replaces the user's own instruction file at abs with text,
// whole or not at all (a new file beside it, renamed over it), keeping
// its mode; a link the user made is followed, so the file it points to
// is written and the link stays. Its folder is made (0700) when missing.
func WriteUser(abs, text string, mode os.FileMode) error {
	if target, err := filepath.EvalSymlinks(abs); err == nil {
		abs = target
	}
	dir := filepath.Dir(abs)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".pilot-remember-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.WriteString(text)
	err = errors.Join(err, f.Chmod(mode), f.Sync(), f.Close())
	if err == nil {
		err = os.Rename(tmp, abs)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}
