package main

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The bound API: the exported methods of *App in the main package, which
// Wails binds into the window. Wails decides by reflection
// (reflect.TypeOf(&App{}).NumMethod()): every exported method in the
// method set of *App, so those of App and *App receivers, and the methods
// promoted from embedded fields (App embeds nothing; an embedded field is
// refused here rather than followed). startup, shutdown and the other
// lifecycle hooks are unexported, so not bound.

// boundTags are the build tags `wails generate module` compiles the main
// package with (the Makefile's TAGS, and bindings, which Wails adds).
var boundTags = []string{"bindings", "webkit2_41", "sqlite_fts5"}

// paramDirective, in a bound method's doc comment, gives a string
// parameter the type of a closed set of backend/wire (Wails types the
// argument as a plain string; the window's side is narrowed):
//
//	//wiregen:param mode ApprovalMode
const paramDirective = "//wiregen:param "

// boundMethod is one method App binds.
type boundMethod struct {
	Name   string // Go name: SetSessionMode
	Doc    string
	Params []boundParam
	Result *goType // nil: the promise resolves to nothing
}

// boundParam is one parameter of a bound method.
type boundParam struct {
	Name string // as TypeScript names it: sessionId
	Type *goType
}

// goType is a Go type as it crosses the bridge.
type goType struct {
	TS string // the window's type: SessionSummary[]
	// Wire names the type of wire.gen.ts TS refers to, if any.
	Wire string
	// Struct names a struct of backend/wire (element of a slice when
	// Slice): the Wails binding takes it as a class of its models.
	Struct string
	Slice  bool
	// Named: the type names a declared type (a struct or a closed set),
	// which the Wails binding types more loosely than the contract.
	Named bool
}

// appPkg is the main package as the generator reads it: its bound methods,
// and the types of other packages of the module they return.
type appPkg struct {
	methods []boundMethod
	wire    *wirePkg
	// others: the module's packages other than wire whose structs the
	// methods use (backend/version's Info), by import path.
	others map[string]*wirePkg
	// decls: the structs of others the methods use, each declared once in
	// backend.gen.ts, in the order first met.
	decls  []otherType
	root   string
	module string
}

// loadApp reads the bound methods of the main package in root; wire is
// backend/wire, loaded.
func loadApp(root string, wire *wirePkg) (*appPkg, error) {
	module, err := modulePath(root)
	if err != nil {
		return nil, err
	}
	a := &appPkg{wire: wire, others: map[string]*wirePkg{}, root: root, module: module}
	ctx := build.Default
	ctx.BuildTags = boundTags
	names, err := filepath.Glob(filepath.Join(root, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := ctx.MatchFile(root, filepath.Base(name)); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		if err := a.readFile(fset, f); err != nil {
			return nil, err
		}
	}
	if len(a.methods) == 0 {
		return nil, fmt.Errorf("no exported method of App in %s", root)
	}
	sort.SliceStable(a.methods, func(i, j int) bool { return a.methods[i].Name < a.methods[j].Name })
	return a, nil
}

// modulePath is the module line of root's go.mod.
func modulePath(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", fmt.Errorf("%s/go.mod has no module line", root)
}

// readFile collects the bound methods of one file of the main package.
func (a *appPkg) readFile(fset *token.FileSet, f *ast.File) error {
	imports := map[string]string{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := filepath.Base(path)
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = path
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, s := range d.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok || ts.Name.Name != "App" {
					continue
				}
				if st, ok := ts.Type.(*ast.StructType); ok {
					for _, fl := range st.Fields.List {
						if len(fl.Names) == 0 {
							return fmt.Errorf("%s: App embeds a field: Wails would bind its promoted methods too, which the generator does not follow", fset.Position(fl.Pos()))
						}
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil || !d.Name.IsExported() || !isApp(d.Recv.List[0].Type) {
				continue
			}
			m, err := a.method(fset, d, imports)
			if err != nil {
				return err
			}
			a.methods = append(a.methods, m)
		}
	}
	return nil
}

// isApp says whether a receiver's type is App or *App.
func isApp(t ast.Expr) bool {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.Name == "App"
}

// method reads one bound method's signature.
func (a *appPkg) method(fset *token.FileSet, d *ast.FuncDecl, imports map[string]string) (boundMethod, error) {
	m := boundMethod{Name: d.Name.Name}
	if d.Doc != nil {
		m.Doc = d.Doc.Text()
	}
	narrow := map[string]string{}
	if d.Doc != nil {
		for _, c := range d.Doc.List {
			rest, ok := strings.CutPrefix(c.Text, paramDirective)
			if !ok {
				continue
			}
			f := strings.Fields(rest)
			if len(f) != 2 {
				return m, fmt.Errorf("%s: %q: want %sNAME WIRETYPE", fset.Position(c.Pos()), c.Text, paramDirective)
			}
			narrow[f[0]] = f[1]
		}
	}
	fail := func(at ast.Node, format string, args ...any) (boundMethod, error) {
		return m, fmt.Errorf("%s: %s: %s", fset.Position(at.Pos()), m.Name, fmt.Sprintf(format, args...))
	}
	i := 0
	for _, fl := range d.Type.Params.List {
		t, err := a.goType(fl.Type, imports)
		if err != nil {
			return fail(fl, "%v", err)
		}
		names := fl.Names
		if len(names) == 0 {
			names = []*ast.Ident{ast.NewIdent(fmt.Sprintf("arg%d", i+1))}
		}
		for _, n := range names {
			i++
			p := boundParam{Name: tsParam(n.Name), Type: t}
			if enum, ok := narrow[n.Name]; ok {
				delete(narrow, n.Name)
				if t.TS != "string" || t.Named {
					return fail(n, "%s%s %s: only a string parameter takes a closed set's type", paramDirective, n.Name, enum)
				}
				if err := a.wireEnum(enum); err != nil {
					return fail(n, "%s%s %s: %v", paramDirective, n.Name, enum, err)
				}
				p.Type = &goType{TS: enum, Wire: enum}
			}
			m.Params = append(m.Params, p)
		}
	}
	for name := range narrow {
		return fail(d, "%s%s: no parameter %s", paramDirective, name, name)
	}
	var res []ast.Expr
	if d.Type.Results != nil {
		for _, fl := range d.Type.Results.List {
			for range max(1, len(fl.Names)) {
				res = append(res, fl.Type)
			}
		}
	}
	if n := len(res); n > 0 && isError(res[n-1]) {
		res = res[:n-1]
	}
	switch len(res) {
	case 0:
	case 1:
		t, err := a.goType(res[0], imports)
		if err != nil {
			return fail(res[0], "%v", err)
		}
		m.Result = t
	default:
		return fail(d, "returns %d values: a bound method returns at most one value and an error", len(res))
	}
	return m, nil
}

func isError(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "error"
}

// wireEnum checks that name is a closed set of strings of backend/wire.
func (a *appPkg) wireEnum(name string) error {
	tn, ok := a.wire.types.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		return fmt.Errorf("backend/wire has no type %s", name)
	}
	if b, ok := tn.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
		return fmt.Errorf("%s is not a string type", name)
	}
	return nil
}

// goType maps a parameter or result's Go type.
func (a *appPkg) goType(e ast.Expr, imports map[string]string) (*goType, error) {
	switch e := e.(type) {
	case *ast.Ident:
		switch e.Name {
		case "string":
			return &goType{TS: "string"}, nil
		case "bool":
			return &goType{TS: "boolean"}, nil
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64":
			return &goType{TS: "number"}, nil
		}
		return nil, fmt.Errorf("type %s: a bound method takes and returns basic types and types of backend/wire", e.Name)
	case *ast.ArrayType:
		if e.Len != nil {
			return nil, fmt.Errorf("an array: use a slice")
		}
		if id, ok := e.Elt.(*ast.Ident); ok && id.Name == "byte" {
			return &goType{TS: "string"}, nil // base64
		}
		el, err := a.goType(e.Elt, imports)
		if err != nil {
			return nil, err
		}
		if el.Slice {
			return nil, fmt.Errorf("a slice of slices")
		}
		ts := el.TS
		if strings.Contains(ts, " | ") {
			ts = "(" + ts + ")"
		}
		return &goType{TS: ts + "[]", Wire: el.Wire, Struct: el.Struct, Slice: true, Named: el.Named}, nil
	case *ast.SelectorExpr:
		pkg, ok := e.X.(*ast.Ident)
		if !ok {
			break
		}
		path, ok := imports[pkg.Name]
		if !ok {
			return nil, fmt.Errorf("%s.%s: package %s is not imported", pkg.Name, e.Sel.Name, pkg.Name)
		}
		return a.named(path, e.Sel.Name)
	}
	return nil, fmt.Errorf("type %s: a bound method takes and returns basic types, slices and types of backend/wire", types.ExprString(e))
}

// named maps a type of another package of the module: a type of
// backend/wire is the contract's (wire.gen.ts); a struct of another
// package (version.Info) is declared beside the bound methods, named
// for its package (VersionInfo).
func (a *appPkg) named(path, name string) (*goType, error) {
	rel, ok := strings.CutPrefix(path, a.module+"/")
	if !ok {
		return nil, fmt.Errorf("%s.%s: only types of this module cross the bridge", path, name)
	}
	p := a.wire
	prefix := ""
	if rel != "backend/wire" {
		if p = a.others[path]; p == nil {
			var err error
			if p, err = load(filepath.Join(a.root, rel)); err != nil {
				return nil, err
			}
			a.others[path] = p
		}
		prefix = exportName(p.types.Name())
	}
	tn, ok := p.types.Scope().Lookup(name).(*types.TypeName)
	if !ok || !tn.Exported() {
		return nil, fmt.Errorf("%s has no exported type %s", rel, name)
	}
	t := &goType{TS: prefix + name, Named: true}
	if prefix == "" {
		t.Wire = name
	}
	_, isStruct := tn.Type().Underlying().(*types.Struct)
	if isStruct {
		t.Struct = p.types.Name() + "." + name
	}
	if prefix == "" {
		return t, nil
	}
	if !isStruct {
		return nil, fmt.Errorf("%s.%s: only the structs of a package other than backend/wire cross the bridge", rel, name)
	}
	if !slices.Contains(a.decls, otherType{p, tn}) {
		a.decls = append(a.decls, otherType{p, tn})
	}
	return t, nil
}

// otherType is a struct of a package other than backend/wire.
type otherType struct {
	p  *wirePkg
	tn *types.TypeName
}

// exportName is s with its first letter upper-case.
func exportName(s string) string {
	return strings.ToUpper(s[:1]) + s[1:]
}

// tsParam is a Go parameter's name as the window's code spells names:
// sessionID → sessionId, baseURL → baseUrl; in (a keyword) → input.
func tsParam(name string) string {
	if name == "in" {
		return "input"
	}
	return tsName(name)
}

// tsName spells a Go name the TypeScript way: the first word lower-case,
// an initialism in later words capitalised as a word (FindMCPResources →
// findMcpResources, MCPServers → mcpServers, sessionID → sessionId).
func tsName(name string) string {
	words := splitWords(name)
	var b strings.Builder
	for i, w := range words {
		if i == 0 {
			b.WriteString(strings.ToLower(w))
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + strings.ToLower(w[1:]))
	}
	return b.String()
}

// splitWords splits a Go name at its case changes; an initialism is one
// word (MCPServers → MCP, Servers).
func splitWords(s string) []string {
	var words []string
	start := 0
	up := func(i int) bool { return s[i] >= 'A' && s[i] <= 'Z' }
	for i := 1; i < len(s); i++ {
		switch {
		case up(i) && !up(i-1): // fooBar: a new word at B
		case up(i) && i+1 < len(s) && !up(i+1) && up(i-1): // MCPServers: the S of Servers
		default:
			continue
		}
		words = append(words, s[start:i])
		start = i
	}
	return append(words, s[start:])
}
