// Package escapetest builds a project folder full of ways out and a corpus
// of paths that try them, for the tests that prove the file tools never
// read or write outside the project (the sandbox, the tools and the
// headless binary). It is used by tests only.
package escapetest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Layout is a temporary base folder holding the project (Proj) and, beside
// it, folders and files that must never be read or changed through the
// project: every canary file holds Token.
type Layout struct {
	Base    string // holds Proj, Outside and the sibling canary
	Proj    string // the project folder
	Outside string // a folder outside the project
	Token   string // the canary text in every outside file
}

// Canary names relative to Outside; SECRET is the main one.
const (
	Secret  = "SECRET"
	Secret2 = "sub/SECRET2"
	NewFile = "NEWFILE" // never exists: a write must not create it
	Later   = "LATER"   // a dangling link's target, created during the session
)

// New lays out base/proj and base/outside with links of every kind.
func New(base string) (*Layout, error) {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	l := &Layout{Base: base, Proj: filepath.Join(base, "proj"), Outside: filepath.Join(base, "outside"),
		Token: "CANARY" + hex.EncodeToString(b)}
	canary := l.Token + "\nline two of the canary\n"
	files := map[string]string{
		l.Outside + "/" + Secret:           canary,
		l.Outside + "/" + Secret2:          canary,
		l.Outside + "/ink/" + Secret:       canary,
		base + "/SIBLING":                  canary,
		l.Proj + "/README.md":              "# inside\nhello\n",
		l.Proj + "/a/b/c.txt":              "inside c\n",
		l.Proj + "/src/main.go":            "package main\n",
		l.Proj + "/swap.d/" + Secret:       "inside swap\n",
		l.Proj + "/.git/config":            "[core]\n",
		l.Proj + "/.git/hooks/pre-commit":  "#!/bin/sh\n",
		l.Proj + "/deep/a/b/c/d/e/keep.go": "package e\n",
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			return nil, err
		}
	}
	links := map[string]string{
		"dirlink":            l.Outside,
		"rellink":            "../outside",
		"filelink":           l.Outside + "/" + Secret,
		"rfilelink":          "../outside/" + Secret,
		"chain1":             "chain2",
		"chain2":             "chain3",
		"chain3":             "dirlink",
		"rootlink":           "/",
		"procroot":           "/proc/self/root",
		"proccwd":            "/proc/self/cwd",
		"procfd":             "/proc/self/fd",
		"loop1":              "loop2",
		"loop2":              "loop1",
		"dangling":           l.Outside + "/" + Later,
		"danglingdir":        l.Outside + "/newdir",
		"gitlink":            ".git",
		"inlink":             "a/b",
		"a/up":               "..",
		"a/b/up2":            "../..",
		"a/b/out":            "../../../outside",
		"src/sibling":        "../../SIBLING",
		"deep/a/b/up5":       "../../../../..",
		"deep/a/b/c/d/e/far": "../../../../../../../outside",
		"hop":                "a/b/out",
		"dotdotlink":         "..",
		"selflink":           ".",
		"baselink":           l.Base,
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(l.Proj, name)); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// Paths is the corpus: distinct paths that all try to reach outside the
// project (or into .git), in a stable order. abs adds absolute paths.
func (l *Layout) Paths() []string {
	// Ways to reach the outside folder (or a folder holding it).
	toOutside := []string{"dirlink", "rellink", "chain1", "chain3", "a/b/out", "hop", "inlink/out",
		"a/up/dirlink", "a/b/up2/rellink", "deep/a/b/c/d/e/far", "danglingdir/..",
		"rootlink" + l.Outside, "procroot" + l.Outside, "baselink/outside", "dotdotlink/outside",
		"a/b/up2/../outside", "deep/a/b/up5/../outside", "selflink/../outside", "swap.d"}
	prefixes := []string{"", "nope/../", "a/nope/../../", "a/b/nope/../../../", "nope/nope2/../../",
		"./", "a/../", "nope/../nope/../", "src/nope/x/../../../", l.Proj + "/", "a/b/c.txt/../../../"}
	ends := []string{"/" + Secret, "/" + Secret2, "", "/" + NewFile, "/sub"}
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, pre := range prefixes {
		for _, o := range toOutside {
			for _, e := range ends {
				if pre != "" && pre != "nope/../" && e == "/sub" {
					continue
				}
				add(pre + o + e)
			}
		}
	}
	for _, pre := range []string{"", "nope/../", "a/nope/../../", "nope/x/y/../../../"} {
		for _, p := range []string{"filelink", "rfilelink", "src/sibling", "dangling", "loop1", "loop1/x",
			"procfd/3", "procfd/0", "proccwd/" + Secret, "procroot/etc/passwd", "rootlink/etc/passwd",
			"a/up/../" + "rfilelink", "a/up/a/up/a/up/dirlink/" + Secret} {
			add(pre + p)
		}
	}
	rel, _ := filepath.Rel(l.Proj, l.Outside)
	for i := 1; i <= 6; i++ {
		up := strings.Repeat("../", i)
		add(up + "outside/" + Secret)
		add("a/" + up + "outside/" + Secret)
		add(up + "SIBLING")
		add(up)
	}
	for _, p := range []string{
		l.Outside + "/" + Secret, l.Outside, l.Base + "/SIBLING", "/etc/passwd", "/", "/proc/self/root" + l.Outside + "/" + Secret,
		"/proc/self/cwd/" + Secret, l.Proj + "/../outside/" + Secret, l.Proj + "/dirlink/" + Secret, "//" + l.Outside + "/" + Secret,
		rel + "/" + Secret, "..", "../", "./../outside", "a/b/c/../../../../outside/" + Secret,
		"dirlink\x00/" + Secret, "README.md\x00../outside/" + Secret, strings.Repeat("x", 300) + "/../dirlink/" + Secret,
		strings.Repeat("nope/", 900) + strings.Repeat("../", 900) + "dirlink/" + Secret,
		strings.Repeat("../", 2000) + "outside/" + Secret,
		"\u2025/outside/" + Secret, "\uff0e\uff0e/outside/" + Secret, "..\u200b/outside/" + Secret, "dirlink\u200b/" + Secret,
		"..\\outside\\" + Secret, "%2e%2e/outside/" + Secret, "~/../outside/" + Secret, "$HOME/" + Secret,
		// .git: never written (reads are allowed inside the project).
		".git/config", ".git/hooks/pre-commit", "gitlink/config", "gitlink/hooks/post-checkout", "a/../.git/config",
		"nope/../.git/config", "./.git/HEAD", "a/up/.git/config", "inlink/up2/.git/config", ".git/newfile",
		"selflink/.git/config", l.Proj + "/.git/config",
	} {
		add(p)
	}
	return out
}

// Snapshot is the content of everything outside the project, to compare.
type Snapshot map[string]string

// Snap records every file, folder and link below Base except the project.
func (l *Layout) Snap() (Snapshot, error) {
	s := Snapshot{}
	err := filepath.WalkDir(l.Base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == l.Proj {
			return filepath.SkipDir
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			t, _ := os.Readlink(p)
			s[p] = "link:" + t
		case d.IsDir():
			s[p] = "dir"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			s[p] = string(b)
		}
		return nil
	})
	return s, err
}

// Diff lists what changed between two snapshots.
func (s Snapshot) Diff(t Snapshot) []string {
	var d []string
	for k, v := range s {
		if w, ok := t[k]; !ok {
			d = append(d, "removed "+k)
		} else if w != v {
			d = append(d, "changed "+k)
		}
	}
	for k := range t {
		if _, ok := s[k]; !ok {
			d = append(d, "created "+k)
		}
	}
	slices.Sort(d)
	return d
}

// GitSnap is the content of the project's .git folder.
func (l *Layout) GitSnap() string {
	var b bytes.Buffer
	_ = filepath.WalkDir(filepath.Join(l.Proj, ".git"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			c, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s=%s\n", p, c)
		}
		return nil
	})
	return b.String()
}

// Leaks reports whether s holds the canary (or a recognisable part of it).
func (l *Layout) Leaks(s string) bool {
	return strings.Contains(s, l.Token) || strings.Contains(s, "line two of the canary") || strings.Contains(s, "root:x:0:0")
}

// LeaksToken is Leaks for text that also holds the calls themselves (a
// transcript, a session database): the call inputs name the canary's
// second line, never its random token.
func (l *Layout) LeaksToken(s string) bool {
	return strings.Contains(s, l.Token) || strings.Contains(s, "root:x:0:0")
}
