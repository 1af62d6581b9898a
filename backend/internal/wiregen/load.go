package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// wirePkg is the Go package read and type-checked, with the doc comments
// of its declarations.
type wirePkg struct {
	fset  *token.FileSet
	files []*ast.File
	types *types.Package
	info  *types.Info
	// docs maps a type or field's position to its doc comment.
	docs map[token.Pos]string
}

// load parses and type-checks the non-test Go files of dir.
func load(dir string) (*wirePkg, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	p := &wirePkg{fset: token.NewFileSet(), docs: map[token.Pos]string{}}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(p.fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		p.files = append(p.files, f)
	}
	if len(p.files) == 0 {
		return nil, fmt.Errorf("no Go files in %s", dir)
	}
	p.info = &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: importer.Default()}
	p.types, err = conf.Check(p.files[0].Name.Name, p.fset, p.files, p.info)
	if err != nil {
		return nil, fmt.Errorf("type-checking %s: %w", dir, err)
	}
	for _, f := range p.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if len(n.Specs) == 1 && n.Doc != nil {
					switch sp := n.Specs[0].(type) {
					case *ast.TypeSpec:
						p.docs[sp.Name.Pos()] = n.Doc.Text()
					case *ast.ValueSpec:
						p.docs[sp.Names[0].Pos()] = n.Doc.Text()
					}
				}
			case *ast.TypeSpec:
				if n.Doc != nil {
					p.docs[n.Name.Pos()] = n.Doc.Text()
				}
			case *ast.ValueSpec:
				doc := n.Doc
				if doc == nil {
					doc = n.Comment
				}
				if doc != nil {
					p.docs[n.Names[0].Pos()] = doc.Text()
				}
			case *ast.Field:
				doc := n.Doc
				if doc == nil {
					doc = n.Comment
				}
				if doc != nil && len(n.Names) > 0 {
					p.docs[n.Names[0].Pos()] = doc.Text()
				}
			}
			return true
		})
	}
	return p, nil
}

// event is one entry of wire.Payloads: the constant naming the event,
// its value, and the payload's type.
type event struct {
	Const, Name string
	Payload     *types.Named
}

// events reads the composite literal of wire.Payloads.
func (p *wirePkg) events() ([]event, error) {
	var lit *ast.CompositeLit
	for _, f := range p.files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Names) == 1 && vs.Names[0].Name == "Payloads" && len(vs.Values) == 1 {
					lit, _ = vs.Values[0].(*ast.CompositeLit)
				}
			}
		}
	}
	if lit == nil {
		return nil, fmt.Errorf("no var Payloads = map[string]any{...} in package %s", p.types.Name())
	}
	var out []event
	for _, e := range lit.Elts {
		kv := e.(*ast.KeyValueExpr)
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			return nil, fmt.Errorf("%s: a key of Payloads must name an event constant", p.fset.Position(kv.Pos()))
		}
		c, ok := p.info.Uses[key].(*types.Const)
		if !ok || c.Val().Kind() != constant.String {
			return nil, fmt.Errorf("%s: %s is not a string constant", p.fset.Position(kv.Pos()), key.Name)
		}
		named, ok := p.info.Types[kv.Value].Type.(*types.Named)
		if !ok {
			return nil, fmt.Errorf("%s: the payload of %s must be a value of a named type", p.fset.Position(kv.Pos()), key.Name)
		}
		out = append(out, event{Const: key.Name, Name: constant.StringVal(c.Val()), Payload: named})
	}
	return out, nil
}
