package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"

	"pilot/backend/projectroot"
)

// editTarget is an existing text file loaded for editing.
type editTarget struct {
	path    projectroot.Path // where the change lands (links followed)
	given   projectroot.Path // the path as given, cleaned
	data    []byte           // the bytes on disk
	text    string           // decoded: no BOM, \n line ends
	format  textFormat
	mode    fs.FileMode
	existed bool
}

// loadTarget resolves p for writing and reads the file if it exists. A
// folder, a binary file or a path that cannot be written is an error
// resolveErr turns into a Result for the model; so is a missing file when
// mustExist (patching needs a file).
func loadTarget(d Deps, p string, mustExist bool) (*editTarget, error) {
	rp, err := d.Root.ResolveWrite(p)
	if err != nil {
		return nil, err
	}
	given, _ := d.Root.Resolve(p)
	t := &editTarget{path: rp, given: given, mode: 0o644}
	f, fi, _, err := d.Root.OpenRead(rp.Rel)
	if f != nil {
		defer f.Close()
	}
	switch {
	case (errors.Is(err, syscall.ENOTDIR) || errors.Is(err, fs.ErrNotExist)) && projectroot.FileOnWay(d.Root, rp.Rel):
		return nil, mistakef("%q cannot be a file: a folder on its way is a file. Call list_files to see what is there.", p)
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		if mustExist {
			return nil, mistakef("%s To create a new file, use write_file.", notFound(d, p, rp))
		}
		return t, nil
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, mistakef("%q is a folder, not a file. Give the path of a file inside it; call list_files with path %q to see them.", p, rp.Rel)
	case !fi.Mode().IsRegular():
		return nil, mistakef("%q is not a regular file (%s); only regular files can be edited.", p, fi.Mode().Type())
	}
	data, err := projectroot.ReadAtMost(f, fi, maxReadSize)
	if errors.Is(err, projectroot.ErrTooLarge) {
		return nil, mistakef("%q is larger than %s, too large to edit with the file tools. Use run_bash if you really need to change it.", p, formatSize(maxReadSize))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rp.Rel, err)
	}
	if isBinary(data) {
		return nil, mistakef("%q is a binary file (%s, %s); the file tools only edit text. Use run_bash if you really need to change it.", p, contentType(data), formatSize(int64(len(data))))
	}
	t.data, t.existed, t.mode = data, true, fi.Mode().Perm()
	t.text, t.format = decodeText(data)
	return t, nil
}

// change proposes text (decoded form) as the file's new content, encoded
// the way the file was (BOM, CRLF).
func (t *editTarget) change(text string) FileChange {
	c := FileChange{
		Path:       t.path.Rel,
		Abs:        t.path.Abs,
		OldContent: string(t.data),
		NewContent: t.format.encode(text),
		Existed:    t.existed,
		Mode:       t.mode,
	}
	if t.existed {
		c.OldHash = hashContent(t.data)
	}
	return c
}

// replaceOnce replaces oldText by newText in the target's text: exactly one
// occurrence, or every one with all. When that is not possible it returns a
// message for the model instead.
func (t *editTarget) replaceOnce(text, oldText, newText string, all bool) (string, string) {
	oldText, newText = t.format.normalize(oldText), t.format.normalize(newText)
	name := t.path.Rel
	switch {
	case oldText == "":
		return "", "old_text is empty. To add text, put a nearby line in old_text and repeat it in new_text together with the addition; to create or replace a whole file, use write_file."
	case oldText == newText:
		return "", "old_text and new_text are identical, so nothing would change. Put the text you want in new_text."
	}
	n := strings.Count(text, oldText)
	switch {
	case n == 0:
		return "", fmt.Sprintf("old_text was not found in %s. %s", name, nearMatch(text, oldText))
	case n > 1 && !all:
		return "", fmt.Sprintf("old_text occurs %d times in %s, at lines %s. Add surrounding lines to old_text so it matches exactly one place, or set replace_all to true to change every occurrence.", n, name, occurrenceLines(text, oldText))
	}
	return strings.ReplaceAll(text, oldText, newText), ""
}

// occurrenceLines lists the 1-indexed lines where s starts in text.
func occurrenceLines(text, s string) string {
	var lines []string
	line, counted := 1, 0
	for pos := 0; ; {
		i := strings.Index(text[pos:], s)
		if i < 0 || len(lines) == 20 {
			break
		}
		line += strings.Count(text[counted:pos+i], "\n")
		counted = pos + i
		lines = append(lines, fmt.Sprint(line))
		pos += i + len(s)
	}
	return strings.Join(lines, ", ")
}
