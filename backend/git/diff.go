package git

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// BranchFile is one file a worktree's branch changed against its base
// commit: its content there and in the worktree's folder now (committed
// or not).
type BranchFile struct {
	Path     string // slash-separated, relative to the worktree's top
	InBase   bool   // the file is in the base commit
	Base     []byte
	BaseMode fs.FileMode // its mode in the base commit: 0644 or 0755, or fs.ModeSymlink|0777 for a link (0 when not there)
	Exists   bool        // the file is in the worktree now
	Now      []byte
	Mode     fs.FileMode // permission bits of the file now (0 when gone)
	Binary   bool        // either side holds a NUL byte: no text hunks
}

// BranchChanges lists the files of the working tree of dir that differ
// from commit base: committed on the branch since, changed and not
// committed, and untracked files git does not ignore. Sorted by path.
// A change of the executable bit alone, or of a file into a link, is
// listed; a rename is a deletion and a new file.
func (g Git) BranchChanges(ctx context.Context, dir, base string) ([]BranchFile, error) {
	r, err := g.at(ctx, dir)
	if err != nil {
		return nil, err
	}
	tracked, baseModes, untracked, err := r.walk(ctx, base)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var names []string
	for _, p := range append(tracked, untracked...) {
		if !seen[p] {
			seen[p] = true
			names = append(names, p)
		}
	}
	sort.Strings(names)
	blobs, err := r.blobsAt(ctx, base, names)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var out []BranchFile
	for _, p := range names {
		f := BranchFile{Path: p}
		f.Base, f.InBase = blobs[p]
		if f.InBase {
			f.BaseMode = baseModes[p]
		}
		if f.Now, f.Mode, f.Exists, err = readNow(root, p); err != nil {
			return nil, fmt.Errorf("reading %s in the worktree: %w", p, err)
		}
		if f.InBase == f.Exists && bytes.Equal(f.Base, f.Now) && SameKind(f.BaseMode, f.Mode) {
			continue
		}
		f.Binary = bytes.IndexByte(f.Base, 0) >= 0 || bytes.IndexByte(f.Now, 0) >= 0
		out = append(out, f)
	}
	return out, nil
}

// walk lists the tracked files of dir's working tree that differ from
// base (with their modes in base) and the untracked files git does not
// ignore. The two are walks of the whole tree, and checking the index for
// marked entries (unmarkIndex) a read of all of it: they run side by side
// (100,000 files: 70, 160 and 130 ms one after the other). A marked index,
// which only a command could have made, is rebuilt and walked again.
func (r runner) walk(ctx context.Context, base string) (tracked []string, baseModes map[string]fs.FileMode, untracked []string, err error) {
	type result struct {
		out    string
		marked bool
		err    error
	}
	run := func(args ...string) chan result {
		c := make(chan result, 1)
		go func() {
			out, err := r.run(ctx, args...)
			c <- result{out: out, err: err}
		}()
		return c
	}
	marks := make(chan result, 1)
	go func() {
		marked, err := r.indexMarked(ctx)
		marks <- result{marked: marked, err: err}
	}()
	diff := run(rawDiff(base)...)
	others := run("ls-files", "--others", "--exclude-standard", "-z")
	m, d, o := <-marks, <-diff, <-others
	if m.err != nil {
		return nil, nil, nil, m.err
	}
	if m.marked {
		if err := r.unmarkIndex(ctx); err != nil {
			return nil, nil, nil, err
		}
		d, o = <-run(rawDiff(base)...), <-run("ls-files", "--others", "--exclude-standard", "-z")
	}
	if d.err != nil {
		return nil, nil, nil, d.err
	}
	if o.err != nil {
		return nil, nil, nil, o.err
	}
	tracked, baseModes, err = parseRaw(d.out)
	return tracked, baseModes, splitZ(o.out), err
}

// rawDiff is the diff of the working tree against base, file by file,
// submodules compared by their commit only (see harden.go).
func rawDiff(base string) []string {
	return []string{"diff", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty", base, "--"}
}

// SameKind reports whether two modes are the same to git: both links, or
// both files with the same executable bit.
func SameKind(a, b fs.FileMode) bool {
	link := fs.ModeSymlink
	return a&link == b&link && (a&link != 0 || (a&0o100 != 0) == (b&0o100 != 0))
}

// parseRaw reads `git diff --raw -z` (":old new oldsha newsha status\0path\0"
// per file): the paths and each one's mode in the base commit (absent
// when the file was not there).
func parseRaw(raw string) ([]string, map[string]fs.FileMode, error) {
	fields := strings.Split(raw, "\x00")
	var paths []string
	modes := map[string]fs.FileMode{}
	for i := 0; i+1 < len(fields); i += 2 {
		head, p := fields[i], fields[i+1]
		parts := strings.Fields(strings.TrimPrefix(head, ":"))
		if len(parts) < 5 {
			return nil, nil, fmt.Errorf("git diff --raw printed %q", head)
		}
		paths = append(paths, p)
		if m, ok := gitMode(parts[0]); ok {
			modes[p] = m
		}
	}
	return paths, modes, nil
}

// gitMode is a git tree entry's mode as a file mode; false for none
// (000000) and for a submodule (160000), which is no file.
func gitMode(m string) (fs.FileMode, bool) {
	switch m {
	case "100644":
		return 0o644, true
	case "100755":
		return 0o755, true
	case "120000":
		return fs.ModeSymlink | 0o777, true
	}
	return 0, false
}

// readNow reads rel under root without following a symbolic link: a
// link's content is its target.
func readNow(root *os.Root, rel string) ([]byte, fs.FileMode, bool, error) {
	rel = filepath.FromSlash(rel)
	fi, err := root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		t, err := root.Readlink(rel)
		return []byte(t), fi.Mode().Perm() | fs.ModeSymlink, true, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, false, nil // a submodule's folder: not a file of the diff
	}
	data, err := root.ReadFile(rel)
	return data, fi.Mode().Perm(), true, err
}

// BlobsAt reads the files paths (relative to the top of dir's work tree)
// as they are in commit rev, in one `git cat-file --batch`. A path not in
// rev is absent from the map.
func (g Git) BlobsAt(ctx context.Context, dir, rev string, paths []string) (map[string][]byte, error) {
	r, err := g.at(ctx, dir)
	if err != nil {
		return nil, err
	}
	return r.blobsAt(ctx, rev, paths)
}

func (r runner) blobsAt(ctx context.Context, rev string, paths []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(paths) == 0 {
		return out, nil
	}
	var in bytes.Buffer
	for _, p := range paths {
		if strings.ContainsAny(p, "\n") {
			return nil, fmt.Errorf("the file name %q holds a line break, which git cat-file cannot be asked about", p)
		}
		fmt.Fprintf(&in, "%s:%s\n", rev, p)
	}
	raw, err := r.runInput(ctx, in.Bytes(), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(strings.NewReader(raw))
	for _, p := range paths {
		head, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file --batch ended early, at %s", p)
		}
		fields := strings.Fields(head)
		if len(fields) != 3 {
			continue // "<object> missing": not in rev
		}
		size, err := strconv.Atoi(fields[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file --batch printed %q", strings.TrimSpace(head))
		}
		data := make([]byte, size+1) // the content and its "\n"
		if _, err := io.ReadFull(br, data); err != nil {
			return nil, fmt.Errorf("git cat-file --batch ended early, in %s", p)
		}
		if fields[1] == "blob" {
			out[p] = data[:size]
		}
	}
	return out, nil
}

// splitZ splits git's NUL-terminated list.
func splitZ(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, "\x00") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
