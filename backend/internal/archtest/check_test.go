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

// pkg is one package of the module and, file by file, the module's
// packages each of its (non-test) files imports.
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
	windowOnly       map[string]bool
	faceAllowed      map[string]map[string]string
	faceToRemove     map[string]map[string]string
	upwardExceptions map[edge]string
}

// projectRules are the rules of this module.
func projectRules() rules {
	return rules{
		layers: layers, windowPkg: windowPkg, windowEntry: windowEntry, cliPkg: cliPkg,
		servicePkg: servicePkg, wirePkg: wirePkg, windowOnly: windowOnly,
		faceAllowed: faceAllowed, faceToRemove: faceImportsToRemove, upwardExceptions: upwardExceptions,
	}
}

// face says which face a file is part of: "window", "cli" or "".
func (r rules) face(path, file string) string {
	switch {
	case path == r.windowPkg && file != r.windowEntry:
		return "window"
	case path == r.cliPkg || strings.HasPrefix(path, r.cliPkg+"/"):
		return "cli"
	}
	return ""
}

func (r rules) isCLI(path string) bool {
	return path == r.cliPkg || strings.HasPrefix(path, r.cliPkg+"/")
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
				allowed := to == r.servicePkg || to == r.wirePkg || r.faceAllowed[face][to] != ""
				if face == "window" && r.isCLI(to) {
					allowed = false // whatever faceAllowed says
				}
				if face != "" && !allowed {
					switch {
					case r.faceToRemove[face][to] != "":
						usedFace[[2]string{face, to}] = true
					case face == "window" && r.isCLI(to):
						broken = append(broken, fmt.Sprintf("%s: the window imports the CLI's %s", where, to))
					default:
						broken = append(broken, fmt.Sprintf("%s: the %s face imports %s; a face imports only %s, %s and the packages of its faceAllowed table", where, face, to, r.servicePkg, r.wirePkg))
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
				if path == module || strings.HasPrefix(path, module+"/") {
					imports = append(imports, path)
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
