package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// readCurrent reads the file rel through the root as it is now.
func readCurrent(d Deps, rel string) ([]byte, error) {
	return d.Root.ReadFile(rel, maxReadSize)
}

// applyFiles writes approved file changes, all or nothing. opts.Final
// overrides the content of a change by its Path. First every file is checked (path
// still resolves to the same place, content unchanged since the proposal);
// then each is written atomically; if a write fails, the files already
// written are put back and the folders created for them removed.
func applyFiles(d Deps, changes []FileChange, opts ApplyOptions, note string) (Result, error) {
	rels := map[string]string{} // where each change lands, relative to the root
	for _, c := range changes {
		rp, err := d.Root.ResolveWrite(c.Path)
		if err != nil {
			return resolveErr(err)
		}
		if rp.Abs != c.Abs {
			return errorf("%s now leads to %s instead of %s (a symbolic link changed since the change was proposed), so nothing was written. Propose the change again.", c.Path, rp.Abs, c.Abs), nil
		}
		rels[c.Path] = rp.Rel
		cur, err := readCurrent(d, rp.Rel)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Result{}, fmt.Errorf("apply %s: %w", c.Path, err)
		}
		if exists != c.Existed || (exists && hashContent(cur) != c.OldHash) {
			return errorf("%s changed on disk since the change was proposed (edited by the user, a command or another change), so nothing was written. Call read_file on %s and propose the change again.", c.Path, c.Path), nil
		}
	}
	type done struct {
		c    FileChange
		dirs []string
	}
	var written []done
	rollback := func() {
		for i := len(written) - 1; i >= 0; i-- {
			w := written[i]
			if w.c.Existed {
				_ = d.Root.WriteAtomic(rels[w.c.Path], []byte(w.c.OldContent), w.c.Mode)
			} else {
				_ = d.Root.Remove(rels[w.c.Path])
			}
			for j := len(w.dirs) - 1; j >= 0; j-- {
				_ = d.Root.Remove(w.dirs[j])
			}
		}
	}
	var b strings.Builder
	for _, c := range changes {
		content, ok := opts.Final[c.Path]
		if !ok {
			content = c.NewContent
		}
		edited := opts.Edited[c.Path] && content != c.NewContent
		dirs, err := d.Root.MkdirAll(path.Dir(rels[c.Path]))
		if err == nil {
			err = d.Root.WriteAtomic(rels[c.Path], []byte(content), c.Mode)
		}
		if err != nil {
			for j := len(dirs) - 1; j >= 0; j-- {
				_ = d.Root.Remove(dirs[j])
			}
			rollback()
			return Result{}, fmt.Errorf("apply %s: %w (no file was changed)", c.Path, err)
		}
		written = append(written, done{c: c, dirs: dirs})
		d.Reads.MarkRead(c.Abs)
		verb := "Updated"
		if !c.Existed {
			verb = "Created"
		}
		fmt.Fprintf(&b, "%s %s (%s, %s).", verb, c.Path, formatSize(int64(len(content))), plural(countLines(content), "line"))
		if edited {
			b.WriteString(" The user edited the change before approving it, so the file differs from what you proposed; call read_file to see it.")
		}
		b.WriteByte('\n')
	}
	if note != "" {
		b.WriteString(note)
	}
	return Result{Output: strings.TrimRight(b.String(), "\n")}, nil
}
