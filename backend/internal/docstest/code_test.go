// Package docstest keeps docs/CLI.md true: its command-line flags, its
// environment variables and its tools are compared with the code here (the
// window's test ids are compared by frontend/scripts/testids.test.mjs).
// It has only tests.
package docstest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// moduleRoot is the folder of go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// parseDir parses the non-test Go files under dir (sub-folders too when
// deep), skipping the folders skip says to.
func parseDir(t *testing.T, dir string, deep bool, skip func(string) bool) []*ast.File {
	t.Helper()
	var files []*ast.File
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && (!deep || skip(p) || strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

var (
	dashFlag  = regexp.MustCompile(`^(-[a-zA-Z]|--[a-z][a-z0-9-]*)=?$`)
	flagName  = regexp.MustCompile(`^[a-zA-Z][a-z0-9-]*$`)
	flagSetFn = map[string]int{ // flag.FlagSet methods: the argument that is the flag's name
		"String": 0, "Bool": 0, "Int": 0, "Int64": 0, "Uint": 0, "Float64": 0, "Duration": 0, "Func": 0, "BoolFunc": 0, "TextVar": 1,
		"StringVar": 1, "BoolVar": 1, "IntVar": 1, "Int64Var": 1, "UintVar": 1, "Float64Var": 1, "DurationVar": 1, "Var": 1,
	}
)

// dashed writes a flag's name as it is typed: -p, --project.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// codeFlags returns the flags the CLI's code knows, read four ways from
// its files: string literals that are flags ("--json", "-p="); names given
// to a flag.FlagSet (fs.Bool("force", ...)); the case labels of a switch on
// a name whose dashes were trimmed (strings.TrimLeft(arg, "-")); and the
// keys of a map named ...Flags (the window's own flags).
func codeFlags(files []*ast.File) map[string]bool {
	flags := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, ok := stringLit(n); ok && dashFlag.MatchString(s) {
					flags[strings.TrimSuffix(s, "=")] = true
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if i, known := flagSetFn[sel.Sel.Name]; known && len(n.Args) > i {
					if s, ok := stringLit(n.Args[i]); ok && flagName.MatchString(s) {
						flags[dashed(s)] = true
					}
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if !strings.HasSuffix(name.Name, "Flags") || i >= len(n.Values) {
						continue
					}
					if cl, ok := n.Values[i].(*ast.CompositeLit); ok {
						for _, el := range cl.Elts {
							if kv, ok := el.(*ast.KeyValueExpr); ok {
								if s, ok := stringLit(kv.Key); ok {
									flags["-"+s] = true
								}
							}
						}
					}
				}
			case *ast.FuncDecl:
				for name := range trimmedNames(n) {
					ast.Inspect(n, func(m ast.Node) bool {
						sw, ok := m.(*ast.SwitchStmt)
						if !ok {
							return true
						}
						if id, isIdent := sw.Tag.(*ast.Ident); !isIdent || id.Name != name {
							return true
						}
						for _, c := range sw.Body.List {
							for _, e := range c.(*ast.CaseClause).List {
								if s, ok := stringLit(e); ok && flagName.MatchString(s) {
									flags[dashed(s)] = true
								}
							}
						}
						return true
					})
				}
			}
			return true
		})
	}
	return flags
}

// trimmedNames are the variables of fn assigned from an expression that
// trims the dashes off an argument (strings.TrimLeft(arg, "-")).
func trimmedNames(fn *ast.FuncDecl) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(fn, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		trims := false
		for _, rhs := range as.Rhs {
			ast.Inspect(rhs, func(m ast.Node) bool {
				call, ok := m.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, isSel := call.Fun.(*ast.SelectorExpr); isSel && (sel.Sel.Name == "TrimLeft" || sel.Sel.Name == "TrimPrefix") && len(call.Args) == 2 {
					if s, ok := stringLit(call.Args[1]); ok && strings.Trim(s, "-") == "" {
						trims = true
					}
				}
				return true
			})
		}
		if trims {
			for _, lhs := range as.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && id.Name != "_" {
					names[id.Name] = true
				}
			}
		}
		return true
	})
	return names
}

// commandWords returns the words the switch of cli.Run's body knows
// (pilot WORD), the flags among them left out.
func commandWords(files []*ast.File) map[string]bool {
	words := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "Run" || fn.Recv != nil {
				continue
			}
			for _, st := range fn.Body.List { // the switch on the first word, not those nested in it
				sw, ok := st.(*ast.SwitchStmt)
				if !ok {
					continue
				}
				for _, c := range sw.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						if s, ok := stringLit(e); ok && !strings.HasPrefix(s, "-") {
							words[s] = true
						}
					}
				}
			}
		}
	}
	return words
}

// stringsOf returns every string literal of the files.
func stringsOf(files []*ast.File) map[string]bool {
	all := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := stringLit(asExpr(n)); ok {
				all[s] = true
			}
			return true
		})
	}
	return all
}

func asExpr(n ast.Node) ast.Expr {
	e, _ := n.(ast.Expr)
	return e
}

var envName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// codeEnv returns the environment variables the program reads: the names
// given to a call of Getenv, LookupEnv, getenv or env, or to a call that
// is handed such a function (pick(env, "PILOT_MODEL", ...)), and the values
// of constants and fields whose name ends in Env (KeyEnv: "XAI_API_KEY").
func codeEnv(files []*ast.File) map[string]bool {
	readers := map[string]bool{"Getenv": true, "LookupEnv": true, "getenv": true, "env": true}
	nameOf := func(e ast.Expr) string {
		switch e := e.(type) {
		case *ast.Ident:
			return e.Name
		case *ast.SelectorExpr:
			return e.Sel.Name
		}
		return ""
	}
	vars := map[string]bool{}
	add := func(e ast.Expr) {
		if s, ok := stringLit(e); ok && envName.MatchString(s) {
			vars[s] = true
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				reads := readers[nameOf(n.Fun)]
				for _, a := range n.Args {
					reads = reads || readers[nameOf(a)]
				}
				if reads {
					for _, a := range n.Args {
						add(a)
					}
				}
			case *ast.KeyValueExpr:
				if strings.HasSuffix(nameOf(n.Key), "Env") {
					add(n.Value)
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if strings.HasSuffix(name.Name, "Env") && i < len(n.Values) {
						add(n.Values[i])
					}
				}
			}
			return true
		})
	}
	return vars
}
