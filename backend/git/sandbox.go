package git

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"pilot/backend/folder"
)

// PodPaths are the git folders of the project at dir that a session's
// sandbox holds read-only (sandbox.GitPaths): a command reads the
// repository but writes none of it.
type PodPaths struct {
	// ReadOnly: dir/.git (a folder, or a gitfile); the git folder and
	// the common folder git resolves from dir, and the top's .git when
	// dir lies below it (for a worktree: the worktree's own folder and
	// the repository's .git, which outside the project are read-only
	// anyway, but would be hidden, or replaced as /tmp is); and the .git
	// of each gitlink (submodule or nested repository) the index
	// registers under dir, with the folder a gitfile there names.
	ReadOnly []string
	// Placeholder is dir/.git when dir has none, or only an empty
	// folder there (left by a pod that ended without removing it).
	Placeholder string
}

// PodPaths finds dir's git folders. With the zero Git (no usable git on
// the machine) only dir/.git or the placeholder are known. A folder in
// no repository has only the placeholder.
func (g Git) PodPaths(ctx context.Context, dir string) (PodPaths, error) {
	var p PodPaths
	own := filepath.Join(dir, ".git")
	fi, err := os.Lstat(own)
	switch {
	case errors.Is(err, fs.ErrNotExist) || err == nil && fi.IsDir() && folder.Empty(own):
		p.Placeholder = own
	case err != nil:
		return p, err
	default:
		p.ReadOnly = append(p.ReadOnly, own)
	}
	if g.Path == "" {
		return p, nil
	}
	r, err := g.at(ctx, dir)
	if err != nil {
		return p, err
	}
	// The index's gitlinks are listed meanwhile: a read of the whole
	// index, the longer of the two in a big repository.
	type result struct {
		out string
		err error
	}
	staged := make(chan result, 1)
	go func() {
		out, err := r.run(ctx, "ls-files", "--stage", "-z")
		staged <- result{out: out, err: err}
	}()
	out, err := r.run(ctx, "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir")
	st := <-staged
	if err != nil {
		return p, nil // in no repository (or one git refuses to read): nothing more to protect
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		return p, errors.New("git rev-parse in " + dir + " printed " + out + ", not three folders")
	}
	common := lines[2]
	if !filepath.IsAbs(common) {
		common = filepath.Join(dir, common)
	}
	p.ReadOnly = appendNew(p.ReadOnly, filepath.Join(lines[0], ".git"), lines[1], filepath.Clean(common))
	if st.err != nil {
		return p, st.err
	}
	for e := range strings.SplitSeq(st.out, "\x00") {
		rel, ok := strings.CutPrefix(e, "160000 ")
		if !ok {
			continue
		}
		_, rel, _ = strings.Cut(rel, "\t")
		sub := filepath.Join(dir, filepath.FromSlash(rel))
		link := filepath.Join(sub, ".git")
		fi, err := os.Lstat(link)
		if err != nil {
			continue // not checked out
		}
		p.ReadOnly = appendNew(p.ReadOnly, link)
		if fi.Mode().IsRegular() {
			if target := gitfileTarget(link); target != "" {
				p.ReadOnly = appendNew(p.ReadOnly, target)
			}
		}
	}
	return p, nil
}

// gitfileTarget is the folder a gitfile names ("gitdir: PATH", relative to
// the gitfile's folder), "" when it names none.
func gitfileTarget(path string) string {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0) // a FIFO put there blocks no read
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	line, err := bufio.NewReader(io.LimitReader(f, 4096)).ReadString('\n')
	if err != nil && err != io.EOF {
		return ""
	}
	target, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "gitdir: ")
	if !ok || target == "" {
		return ""
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	return filepath.Clean(target)
}

// appendNew appends the paths list does not hold yet.
func appendNew(list []string, paths ...string) []string {
	for _, p := range paths {
		if !slices.Contains(list, p) {
			list = append(list, p)
		}
	}
	return list
}
