package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// bigFileSize is the size of the one-file fixture.
const bigFileSize = 48 << 20

// makeBig writes one file of about bigFileSize bytes, the Go files of src
// one after the other in path order, into a folder of its own.
func makeBig(dir, src string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	out, err := os.Create(filepath.Join(dir, "all.go.txt"))
	if err != nil {
		return err
	}
	size := 0
	errFull := fmt.Errorf("full")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			return nil
		}
		n, err := out.Write(data)
		if err != nil {
			return err
		}
		if size += n; size >= bigFileSize {
			return errFull
		}
		return nil
	})
	if cerr := out.Close(); err == nil || err == errFull {
		err = cerr
	}
	return err
}

// makeDeep writes a deep tree: 40 chains of 60 nested folders, each
// folder holding a Go file, a text file and an ignored log file taken
// from src's Go files, a .gitignore at the root ignoring the logs and a
// build/ folder in every chain, and an empty .git folder so that rg and fd
// read the .gitignore as Pilot does.
func makeDeep(dir, src string) error {
	var texts [][]byte
	_ = filepath.WalkDir(filepath.Join(src, "net/http"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") && len(texts) < 64 {
			if data, err := os.ReadFile(p); err == nil && len(data) < 32<<10 {
				texts = append(texts, data)
			}
		}
		return nil
	})
	if len(texts) == 0 {
		return fmt.Errorf("no Go files under %s/net/http to fill the deep tree with", src)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.log\nbuild/\n"), 0o644); err != nil {
		return err
	}
	n := 0
	for c := range 40 {
		p := filepath.Join(dir, fmt.Sprintf("chain%02d", c))
		for level := range 60 {
			p = filepath.Join(p, fmt.Sprintf("l%d", level))
			if level == 30 {
				if err := writeFile(filepath.Join(p, "build", "out.go"), texts[n%len(texts)]); err != nil {
					return err
				}
			}
			for _, name := range []string{"code.go", "notes.txt", "debug.log"} {
				if err := writeFile(filepath.Join(p, name), texts[n%len(texts)]); err != nil {
					return err
				}
				n++
			}
		}
	}
	return nil
}

func writeFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}
