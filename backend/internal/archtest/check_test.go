package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// module is the module's path: only imports of its packages are checked.
const module = "pilot"

// buildTags are the tags `make` builds with; they decide which files a
// package has.
const buildTags = "webkit2_41,sqlite_fts5"

// edge is one import: from imports to.
type edge struct{ from, to string }

// pkg is one package of the module and, file by file, the packages each
// of its (non-test) files imports: the module's, and those from outside
// the standard library.
type pkg struct {
	path  string
	files map[string][]string
}

// rules are the tables of tables_test.go, gathered so that a test can
// check a made-up graph against made-up rules.
type rules struct {
	layers           map[string]int
	windowPkg        string
	windowEntry      string
	cliPkg           string
	servicePkg       string
	wirePkg          string
	bridgePkg        string
	windowOnly       map[string]bool
	faceAllowed      map[string]map[string]string
	faceOutside      map[string]map[string]string
	faceToRemove     map[string]map[string]string
	upwardExceptions map[edge]string
}

// projectRules are the rules of this module.
func projectRules() rules {
	return rules{
		layers: layers, windowPkg: windowPkg, windowEntry: windowEntry, cliPkg: cliPkg,
		servicePkg: servicePkg, wirePkg: wirePkg, bridgePkg: bridgePkg, windowOnly: windowOnly,
		faceAllowed: faceAllowed, faceOutside: faceOutside, faceToRemove: faceImportsToRemove, upwardExceptions: upwardExceptions,
	}
}

// face says which face a file is part of: "window", "entry" (main.go,
// which picks a face), "cli" or "".
func (r rules) face(path, file string) string {
	switch {
	case path == r.windowPkg && file == r.windowEntry:
		return "entry"
	case path == r.windowPkg:
		return "window"
	case path == r.cliPkg || strings.HasPrefix(path, r.cliPkg+"/"):
		return "cli"
	}
	return ""
}

func (r rules) isCLI(path string) bool {
	return path == r.cliPkg || strings.HasPrefix(path, r.cliPkg+"/")
}

// inModule reports whether path is a package of the module (whose path is
// the first element of the window's).
func (r rules) inModule(path string) bool {
	m, _, _ := strings.Cut(r.windowPkg, "/")
	return path == m || strings.HasPrefix(path, m+"/")
}

// faceMayImport reports whether a file of face may import the module's
// package to: the service, the wire types, the window's bridge (not the
// CLI), the face's own packages (the CLI's), and its faceAllowed table.
func (r rules) faceMayImport(face, to string) bool {
	switch {
	case face == "window" && r.isCLI(to):
		return false // whatever faceAllowed says
	case to == r.servicePkg || to == r.wirePkg || r.faceAllowed[face][to] != "":
		return true
	case to == r.bridgePkg:
		return face != "cli"
	}
	return face == "cli" && r.isCLI(to)
}

// outsideAllowed reports whether a file of face may import to, a package
// from outside the module and the standard library.
func (r rules) outsideAllowed(face, to string) bool {
	for prefix := range r.faceOutside[face] {
		if to == prefix || strings.HasPrefix(to, prefix+"/") {
			return true
		}
	}
	return false
}

// check returns every import that breaks a rule, and every exception of
// the tables that no import needs any more; both sorted.
func check(pkgs []pkg, r rules) (broken, stale []string) {
	usedFace := map[[2]string]bool{}
	usedUp := map[edge]bool{}
	for _, p := range pkgs {
		if _, ok := r.layers[p.path]; !ok {
			broken = append(broken, fmt.Sprintf("%s is in no layer: add it to the layers table of backend/internal/archtest", p.path))
		}
		for file, imports := range p.files {
			where := p.path + " (" + file + ")"
			face := r.face(p.path, file)
			for _, to := range imports {
				if !r.inModule(to) {
					if face != "" && !r.outsideAllowed(face, to) {
						broken = append(broken, fmt.Sprintf("%s: the %s face imports %s, from outside the module: a face imports only the standard library and the packages of its faceOutside table", where, face, to))
					}
					continue
				}
				if face != "" && !r.faceMayImport(face, to) {
					switch {
					case r.faceToRemove[face][to] != "":
						usedFace[[2]string{face, to}] = true
					case face == "window" && r.isCLI(to):
						broken = append(broken, fmt.Sprintf("%s: the window imports the CLI's %s", where, to))
					default:
						broken = append(broken, fmt.Sprintf("%s: the %s face imports %s; a face imports only %s, %s, the window's %s and the packages of its faceAllowed table", where, face, to, r.servicePkg, r.wirePkg, r.bridgePkg))
					}
				}
				if r.isCLI(p.path) && r.windowOnly[to] {
					broken = append(broken, fmt.Sprintf("%s: the CLI imports the window's %s", where, to))
				}
				if to == r.servicePkg && p.path != r.windowPkg && !r.isCLI(p.path) {
					broken = append(broken, fmt.Sprintf("%s imports %s: only the faces stand on the service", where, to))
				}
				from, okFrom := r.layers[p.path]
				up, okTo := r.layers[to]
				if okFrom && okTo && up > from {
					if r.upwardExceptions[edge{p.path, to}] != "" {
						usedUp[edge{p.path, to}] = true
					} else {
						broken = append(broken, fmt.Sprintf("%s: %s package imports %s, %s package above it", where, layerNames[from], to, layerNames[up]))
					}
				}
			}
		}
	}
	for face, m := range r.faceToRemove {
		for to := range m {
			if !usedFace[[2]string{face, to}] {
				stale = append(stale, fmt.Sprintf("the %s face no longer imports %s: remove it from faceImportsToRemove", face, to))
			}
		}
	}
	for e := range r.upwardExceptions {
		if !usedUp[e] {
			stale = append(stale, fmt.Sprintf("%s no longer imports %s: remove it from upwardExceptions", e.from, e.to))
		}
	}
	slices.Sort(broken)
	slices.Sort(stale)
	return slices.Compact(broken), stale
}

// loadModule lists the module's packages with go list (the build tags
// decide their files) and reads each file's imports.
func loadModule() ([]pkg, error) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	cmd := exec.Command("go", "list", "-e", "-tags", buildTags, "-json=ImportPath,Dir,GoFiles,CgoFiles", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w: %s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	fset := token.NewFileSet()
	for {
		var lp struct {
			ImportPath, Dir   string
			GoFiles, CgoFiles []string
		}
		if err := dec.Decode(&lp); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		p := pkg{path: lp.ImportPath, files: map[string][]string{}}
		for _, name := range append(lp.GoFiles, lp.CgoFiles...) {
			f, err := parser.ParseFile(fset, filepath.Join(lp.Dir, name), nil, parser.ImportsOnly)
			if err != nil {
				return nil, err
			}
			var imports []string
			for _, spec := range f.Imports {
				path, _ := strconv.Unquote(spec.Path.Value)
				first, _, _ := strings.Cut(path, "/")
				if path == module || strings.HasPrefix(path, module+"/") || strings.Contains(first, ".") {
					imports = append(imports, path) // the module's, and from outside the standard library
				}
			}
			p.files[name] = imports
		}
		if len(p.files) > 0 { // a folder of tests only is no package of the program
			pkgs = append(pkgs, p)
		}
	}
	return pkgs, nil
}
