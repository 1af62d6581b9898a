package projectroot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode"
)

// Pilot's own reads of project files: the instruction files of the system
// prompt, custom commands, skills, agents, settings files, .mcp.json,
// .env, the scripts hooks run, the files synced to a language server.
// They go through the root like the tools' reads (no link out of the
// project, regular files only, O_NONBLOCK, bounded), and a file that is
// not read is a *NotRead, a sentence for the user naming the file and
// what to do. The user's own files (~/.claude, PILOT_HOME) are read with
// ReadUserFile: links followed, as the user made them, but regular files
// only, non-blocking and bounded too.

// Kind is a kind of file Pilot reads for itself, with the most it reads
// of one: a bigger file is not read (Head cuts instead).
type Kind struct {
	Name  string // "a settings file": "more than the 1 MiB a settings file may have"
	Limit int64  // bytes
	Fix   string // what makes a too big file fit: "shorten it"
}

// MaxListed bounds the entries ListOwn reads of one folder.
const MaxListed = 4096

// NotRead is a file Pilot did not read for itself, said for the user:
// "AGENTS.md was not read: it is a link to /proc/self/environ, outside
// the project folder. Replace the link with the file itself."
type NotRead struct {
	Path string // as given: relative to the project folder, or the user's file
	Why  string // "it is a link to /x, outside the project folder"
	Do   string // "replace the link with the file itself"
	Err  error  // ErrOutside, ErrNotRegular, ErrTooLarge, ErrInvalid, or the system's error
}

func (e *NotRead) Error() string {
	return e.Path + " was not read: " + e.Why + ". " + upperFirst(e.Do) + "."
}

func (e *NotRead) Unwrap() error { return e.Err }

// Reason is the refusal as a clause about the file ("it is a link to /x,
// outside the project folder: replace the link with the file itself"),
// for a sentence that names the file itself.
func (e *NotRead) Reason() string { return e.Why + ": " + e.Do }

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ReadOwn reads the project file rel ('/'-separated, relative to the
// root) for Pilot's own use: at most k.Limit bytes. A missing file is an
// fs.ErrNotExist error; any other refusal a *NotRead.
func (r *Root) ReadOwn(rel string, k Kind) ([]byte, error) {
	f, fi, err := r.openOwn(rel)
	if err != nil {
		return nil, err
	}
	return readOpened(f, fi, rel, k)
}

// readOpened reads the opened file f, named name in a refusal, up to
// k.Limit bytes, and closes it.
func readOpened(f *os.File, fi fs.FileInfo, name string, k Kind) ([]byte, error) {
	defer f.Close()
	b, err := ReadAtMost(f, fi, k.Limit)
	if err != nil {
		return nil, readErr(name, err, k)
	}
	return b, nil
}

// HeadOwn reads at most limit bytes of the project file rel; more reports
// that the file goes on. Errors as ReadOwn.
func (r *Root) HeadOwn(rel string, limit int64) (b []byte, more bool, err error) {
	f, _, err := r.openOwn(rel)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	return head(rel, f, limit)
}

// head reads at most limit bytes of f (named p in an error); more reports
// that it goes on.
func head(p string, f *os.File, limit int64) (b []byte, more bool, err error) {
	b, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, readErr(p, err, Kind{})
	}
	if int64(len(b)) > limit {
		return b[:limit], true, nil
	}
	return b, false, nil
}

// openOwn opens the regular file rel through the root.
func (r *Root) openOwn(rel string) (*os.File, fs.FileInfo, error) {
	f, fi, _, err := r.OpenRead(rel)
	if err != nil {
		return nil, nil, r.notRead(rel, err)
	}
	if fi.IsDir() {
		f.Close()
		return nil, nil, &NotRead{Path: rel, Err: ErrNotRegular, Why: "it is a folder, not a file", Do: "replace it with a file, or remove it"}
	}
	return f, fi, nil
}

// ListOwn lists the project folder rel through the root (a link on the
// way is followed only while it stays inside the project), at most
// MaxListed entries, unsorted. A missing folder is an fs.ErrNotExist
// error; any other refusal a *NotRead.
func (r *Root) ListOwn(rel string) ([]fs.DirEntry, error) {
	lp, err := r.Resolve(rel)
	if err != nil {
		return nil, r.notRead(rel, err)
	}
	f, err := r.root.OpenFile(lp.Rel, os.O_RDONLY|syscall.O_NONBLOCK|oDirectory|syscall.O_NOCTTY, 0)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			if fi, serr := r.root.Lstat(lp.Rel); serr == nil && fi.Mode()&fs.ModeSymlink == 0 {
				return nil, &NotRead{Path: rel, Err: ErrNotRegular, Why: "it is a file, not a folder", Do: "move it aside, or make it a folder"}
			}
		}
		return nil, r.notRead(rel, r.refusal(rel, lp.Rel, err))
	}
	defer f.Close()
	ents, err := f.ReadDir(MaxListed)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, &NotRead{Path: rel, Err: err, Why: fmt.Sprintf("the folder could not be read (%v)", err), Do: "check its permissions"}
	}
	return ents, nil
}

// OpenOwnRoot opens the project folder rel as an *os.Root of its own (a
// skill's folder): links on the way followed only inside the project,
// and nothing opened through it leaves rel. Errors as ListOwn.
func (r *Root) OpenOwnRoot(rel string) (*os.Root, error) {
	lp, err := r.Resolve(rel)
	if err != nil {
		return nil, r.notRead(rel, err)
	}
	sub, err := r.root.OpenRoot(lp.Rel)
	if err != nil {
		return nil, r.notRead(rel, r.refusal(rel, lp.Rel, err))
	}
	return sub, nil
}

// notRead words a refusal of the root (a *PathError for the model) for
// the user. A missing file stays an fs.ErrNotExist error.
func (r *Root) notRead(rel string, err error) error {
	var pe *PathError
	switch {
	case errors.Is(err, fs.ErrNotExist) && !errors.As(err, &pe):
		return err
	case errors.Is(err, ErrOutside):
		return r.outsideOwn(rel)
	case errors.Is(err, ErrNotRegular):
		return &NotRead{Path: rel, Err: ErrNotRegular, Why: "it is " + specialKind(r, rel) + ", not a regular file", Do: "replace it with a regular file, or remove it"}
	case errors.As(err, &pe) && strings.Contains(pe.Msg, "too many symbolic links"):
		return &NotRead{Path: rel, Err: pe.Err, Why: "it goes through too many symbolic links (a link loop?)", Do: "replace the links with the file itself"}
	case errors.As(err, &pe) && strings.Contains(pe.Msg, "a folder on its way is a file"):
		return &NotRead{Path: rel, Err: pe.Err, Why: "a folder on its way is a file", Do: "check the path"}
	case errors.As(err, &pe):
		return &NotRead{Path: rel, Err: pe.Err, Why: "its path cannot be used (" + strings.TrimSuffix(pe.Msg, ".") + ")", Do: "rename it"}
	}
	return &NotRead{Path: rel, Err: err, Why: fmt.Sprintf("it could not be read (%v)", err), Do: "check its permissions"}
}

// outsideOwn words a way out of the project: which link leads where. A
// link to nothing is missing, like a missing file (only the link's
// target is looked up, never opened).
func (r *Root) outsideOwn(rel string) error {
	if _, err := os.Stat(filepath.Join(r.dir, filepath.FromSlash(rel))); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", rel, fs.ErrNotExist)
	}
	abs, via, err := r.explain(rel)
	if err != nil || via == "" {
		return &NotRead{Path: rel, Err: ErrOutside, Why: "it leads outside the project folder " + r.dir, Do: "replace it with the file itself"}
	}
	target, _ := os.Readlink(filepath.Join(r.dir, filepath.FromSlash(via)))
	what := "the file"
	if via != path.Clean(rel) {
		what = "the folder"
	}
	who := "it is"
	if via != path.Clean(rel) {
		who = shown(via) + " is"
	}
	if r.contains(abs) {
		// An absolute link to a place inside: the root never follows one.
		return &NotRead{Path: rel, Err: ErrOutside,
			Why: who + " a link by an absolute path (" + shown(target) + "); Pilot follows links only by a relative path that stays inside the project folder",
			Do:  "make the link relative, or replace it with " + what + " itself"}
	}
	return &NotRead{Path: rel, Err: ErrOutside, Why: who + " a link to " + shown(target) + ", outside the project folder",
		Do: "replace the link with " + what + " itself"}
}

// specialKind names what rel is (a FIFO, a socket, a device).
func specialKind(r *Root, rel string) string {
	fi, err := r.root.Stat(rel)
	if err != nil {
		return "a special file"
	}
	return fileKind(fi.Mode())
}

func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a folder"
	}
	return "a special file"
}

// readErr words an error of ReadAtMost.
func readErr(p string, err error, k Kind) error {
	if errors.Is(err, ErrTooLarge) {
		fix := k.Fix
		if fix == "" {
			fix = "shorten it"
		}
		return &NotRead{Path: p, Err: ErrTooLarge, Why: fmt.Sprintf("it is larger than the %s %s may have", size(k.Limit), k.Name), Do: fix}
	}
	return &NotRead{Path: p, Err: err, Why: fmt.Sprintf("it could not be read (%v)", err), Do: "check its permissions"}
}

// size writes a limit in KiB or MiB.
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n>>10, 10) + " KiB"
}

// shown is a name from the disk as it can be printed: quoted, with its
// escapes, when it holds anything but plain printable characters.
func shown(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u200b' || r == '\ufeff' {
			return strconv.QuoteToASCII(s)
		}
	}
	return s
}

// ReadUserFile reads the user's own file at path (~/.claude,
// PILOT_HOME): links followed, as the user made them, but only a regular
// file, opened without waiting, at most k.Limit bytes. A missing file is
// an fs.ErrNotExist error; any other refusal a *NotRead naming path.
func ReadUserFile(path string, k Kind) ([]byte, error) {
	b, _, err := ReadUserFileMode(path, k)
	return b, err
}

// ReadUserFileMode is ReadUserFile with the permission bits of the file
// read (the one opened, so no second look at path can see another).
func ReadUserFileMode(path string, k Kind) ([]byte, fs.FileMode, error) {
	f, err := os.OpenFile(path, readFlags, 0)
	f, fi, err := userOpened(path, f, err)
	if err != nil {
		return nil, 0, err
	}
	b, err := readOpened(f, fi, path, k)
	return b, fi.Mode().Perm(), err
}

// HeadUserFile reads at most limit bytes of the user's own file at path
// (an instruction file: ~/.claude/CLAUDE.md), links followed as
// ReadUserFile does; more reports that the file goes on. Errors as
// ReadUserFile.
func HeadUserFile(path string, limit int64) (b []byte, more bool, err error) {
	f, err := os.OpenFile(path, readFlags, 0)
	f, _, err = userOpened(path, f, err)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	return head(path, f, limit)
}

// HeadUserFileIn is HeadUserFile for the file name inside the user's
// folder (~/.claude opened as an *os.Root): a link or `..` leading out of
// the folder is refused, as a *NotRead wrapping ErrOutside.
func HeadUserFileIn(folder *os.Root, name string, limit int64) (b []byte, more bool, err error) {
	p := filepath.Join(folder.Name(), filepath.FromSlash(name))
	f, err := folder.OpenFile(name, readFlags, 0)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && strings.Contains(err.Error(), "escapes") {
		return nil, false, &NotRead{Path: p, Err: ErrOutside, Why: "it leads outside " + folder.Name() + " (a link or ..)", Do: "put the file itself in that folder"}
	}
	f, _, err = userOpened(p, f, err)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	return head(p, f, limit)
}

// userOpened checks the user's file path that os opened (f, err): a
// missing file is an fs.ErrNotExist error; anything but a regular file, or
// a file that could not be opened, a *NotRead naming path.
func userOpened(path string, f *os.File, err error) (*os.File, fs.FileInfo, error) {
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		return nil, nil, &NotRead{Path: path, Err: err, Why: fmt.Sprintf("it could not be opened (%v)", unwrapPath(err)), Do: "check its permissions"}
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, &NotRead{Path: path, Err: err, Why: fmt.Sprintf("it could not be read (%v)", err), Do: "check its permissions"}
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRead{Path: path, Err: ErrNotRegular, Why: "it is " + fileKind(fi.Mode()) + ", not a regular file", Do: "replace it with a regular file, or remove it"}
	}
	return f, fi, nil
}

// unwrapPath is the system's error without the path os puts before it.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
