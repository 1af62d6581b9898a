package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"pilot/backend/llm"
	"pilot/backend/projectroot"
	"pilot/backend/toolname"
)

const (
	defaultReadLines = 500
	maxLineLen       = 2000     // bytes shown of one line
	maxReadSize      = 50 << 20 // larger files are refused
)

// ReadFileParams is the input of read_file.
type ReadFileParams struct {
	Path      string `json:"path" desc:"File to read, relative to the project root."`
	StartLine int    `json:"start_line,omitempty" desc:"First line to show, 1-indexed. Default: 1."`
	EndLine   int    `json:"end_line,omitempty" desc:"Last line to show, inclusive. Default: start_line + 499."`
}

func labelReadFile(p ReadFileParams) string {
	l := "→ Reading file: " + p.Path
	switch {
	case p.EndLine > 0:
		l += fmt.Sprintf(" (lines %d-%d)", max(p.StartLine, 1), p.EndLine)
	case p.StartLine > 0:
		l += fmt.Sprintf(" (from line %d)", p.StartLine)
	}
	return l
}

// resolveErr turns a *projectroot.PathError or a mistake into a Result
// for the model; any other error stays an error.
func resolveErr(err error) (Result, error) {
	if pe := (*projectroot.PathError)(nil); errors.As(err, &pe) {
		return errorf("%s", pe.Msg), nil
	}
	if m := mistake(""); errors.As(err, &m) {
		return errorf("%s", m), nil
	}
	return Result{}, err
}

func readFile(_ context.Context, d Deps, p ReadFileParams) (Result, error) {
	f, fi, rp, err := d.Root.OpenRead(p.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errorf("%s", notFound(d, p.Path, rp)), nil
	case err != nil:
		return resolveErr(err)
	}
	defer f.Close()
	switch {
	case d.Withheld != nil && d.withheld(toolname.ReadFile, rp.Rel, d.Root.Locate(f, rp).Rel):
		return errorf("%q is withheld: a project rule denies read_file this path. Do not try to reach it another way; ask the user if you need what it holds.", p.Path), nil
	case fi.IsDir():
		return errorf("%q is a folder, not a file. Call list_files with path %q to see its files.", p.Path, rp.Rel), nil
	case fi.Size() > maxReadSize:
		return errorf("%q is %s, too large to read (the limit is %s). Use grep to find the lines you need in it.", p.Path, formatSize(fi.Size()), formatSize(maxReadSize)), nil
	}
	if p.StartLine < 0 || p.EndLine < 0 {
		return errorf("start_line and end_line are 1-indexed line numbers and cannot be negative (got start_line=%d, end_line=%d).", p.StartLine, p.EndLine), nil
	}
	data, err := projectroot.ReadAtMost(f, fi, maxReadSize)
	if errors.Is(err, projectroot.ErrTooLarge) {
		return errorf("%q grew past %s while it was read, too large to read. Use grep to find the lines you need in it.", p.Path, formatSize(maxReadSize)), nil
	}
	if err != nil {
		return Result{}, fmt.Errorf("read_file: %w", err)
	}
	if mt, ok := llm.SniffImage(data); ok {
		if len(data) > llm.MaxImageBytes {
			return errorf("%q is an image (%s) of %s, larger than the %s a model takes. Ask the user for a smaller version, or use run_bash with a tool such as file or identify to inspect it.", p.Path, mt, formatSize(int64(len(data))), formatSize(llm.MaxImageBytes)), nil
		}
		d.Reads.MarkRead(rp.Abs)
		return Result{Output: fmt.Sprintf("%s is an image (%s, %s); it is attached.", rp.Rel, mt, formatSize(int64(len(data)))),
			Images: []Image{{MediaType: mt, Data: data}}}, nil
	}
	if isBinary(data) {
		return errorf("%q is a binary file (%s, %s); read_file only shows text. Use run_bash with a suitable tool (file, xxd, unzip -l, ...) if you need to inspect it.", p.Path, contentType(data), formatSize(int64(len(data)))), nil
	}
	d.Reads.MarkRead(rp.Abs)
	text, tf := decodeText(data)
	if text == "" {
		return Result{Output: fmt.Sprintf("(%s is empty)", rp.Rel)}, nil
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	start := max(p.StartLine, 1)
	if start > len(lines) {
		return errorf("%q has %s, so start_line=%d is past its end. Call read_file with start_line between 1 and %d.", p.Path, plural(len(lines), "line"), start, len(lines)), nil
	}
	end := p.EndLine
	if end == 0 {
		end = start + defaultReadLines - 1
	}
	if end < start {
		return errorf("end_line=%d is before start_line=%d. Both are inclusive line numbers; to read one line use start_line=%d, end_line=%d.", end, start, start, start), nil
	}
	end = min(end, len(lines))

	var b strings.Builder
	width := len(fmt.Sprint(end))
	for i := start; i <= end; i++ {
		line := lines[i-1]
		if len(line) > maxLineLen {
			cut := maxLineLen
			for cut > 0 && !isRuneStart(line[cut]) {
				cut--
			}
			line = fmt.Sprintf("%s … [line cut: %d more bytes]", line[:cut], len(line)-cut)
		}
		fmt.Fprintf(&b, "%*d\t%s\n", width, i, line)
	}
	if end < len(lines) {
		fmt.Fprintf(&b, "(Showing lines %d-%d of %d. Call read_file with start_line=%d to read more.)\n", start, end, len(lines), end+1)
	}
	if tf.bom || tf.crlf {
		var notes []string
		if tf.bom {
			notes = append(notes, "starts with a UTF-8 byte order mark")
		}
		if tf.crlf {
			notes = append(notes, "uses CRLF line endings")
		}
		fmt.Fprintf(&b, "(The file %s, not shown above; patch_file and write_file keep it that way.)\n", strings.Join(notes, " and "))
	}
	return Result{Output: strings.TrimRight(b.String(), "\n")}, nil
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }

// notFound explains a missing file and suggests near names in its folder.
func notFound(d Deps, given string, rp projectroot.Path) string {
	msg := fmt.Sprintf("The file %q does not exist in the project root %s.", given, d.Root.Dir())
	dir, base := path.Split(rp.Rel)
	folder := strings.TrimSuffix(dir, "/")
	if folder == "" {
		folder = "."
	}
	names, err := d.Root.ListNames(folder)
	if err != nil {
		return msg + " Its folder does not exist either. Call list_files to see what exists, or glob with \"**/" + base + "\" to find it elsewhere."
	}
	stem := strings.ToLower(strings.TrimSuffix(base, path.Ext(base)))
	var near []string
	for _, name := range append(names.Dirs, names.Files...) {
		n := strings.ToLower(name)
		if n == strings.ToLower(base) || strings.TrimSuffix(n, path.Ext(n)) == stem {
			near = append(near, dir+name)
		}
	}
	slices.Sort(near)
	if len(near) > 0 {
		return msg + " Did you mean " + strings.Join(near, ", ") + "?"
	}
	return msg + fmt.Sprintf(" Call list_files with path %q to see its folder, or glob with \"**/%s\" to find it elsewhere.", folder, base)
}
