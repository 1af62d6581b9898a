package tools

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"reflect"
)

// Tool is one tool the model can call.
type Tool interface {
	Name() string
	Description() string
	// Schema is the JSON schema of the input, derived from the params struct.
	Schema() json.RawMessage
	// ReadOnly tools only look; the others return a Proposal to approve.
	ReadOnly() bool
	// Label is the one-line progress text, "→ Reading file: main.go".
	Label(input json.RawMessage) string
	// Execute runs a read-only tool or builds the Proposal of a
	// change-making one. Mistakes of the model come back as a Result with
	// IsError; the error is for failures of the machine (I/O, cancellation).
	Execute(ctx context.Context, input json.RawMessage) (Result, error)
}

// descriptions are the tools' descriptions for the model: NAME.md for
// the tool called NAME.
//
//go:embed *.md
var descriptions embed.FS

// depTool is newTool for a tool whose run needs the Deps.
func depTool[P any](d Deps, name string, readOnly bool, label func(P) string, run func(context.Context, Deps, P) (Result, error)) Tool {
	return newTool(name, readOnly, label, func(ctx context.Context, p P) (Result, error) { return run(ctx, d, p) })
}

// typedTool adapts a function on a params struct P to Tool.
type typedTool[P any] struct {
	name     string
	desc     string
	readOnly bool
	schema   *jsonSchema
	raw      json.RawMessage
	label    func(P) string
	run      func(context.Context, P) (Result, error)
	// more, when set, is added to desc each time the description is
	// read (task's list of the custom agents there are now).
	more func() string
}

func newTool[P any](name string, readOnly bool, label func(P) string, run func(context.Context, P) (Result, error)) *typedTool[P] {
	desc, err := descriptions.ReadFile(name + ".md")
	if err != nil {
		panic(err)
	}
	s := schemaOf(reflect.TypeFor[P]())
	raw, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return &typedTool[P]{name: name, desc: string(desc), readOnly: readOnly, schema: s, raw: raw, label: label, run: run}
}

func (t *typedTool[P]) Name() string { return t.name }
func (t *typedTool[P]) Description() string {
	if t.more != nil {
		return t.desc + t.more()
	}
	return t.desc
}
func (t *typedTool[P]) Schema() json.RawMessage { return t.raw }
func (t *typedTool[P]) ReadOnly() bool          { return t.readOnly }

func (t *typedTool[P]) Label(input json.RawMessage) string {
	p, err := t.decode(input)
	if err != nil {
		return "→ " + t.name
	}
	return t.label(p)
}

func (t *typedTool[P]) Execute(ctx context.Context, input json.RawMessage) (Result, error) {
	p, err := t.decode(input)
	if err != nil {
		return errorf("Invalid input for %s: %v. The input schema is %s", t.name, err, t.raw), nil
	}
	return t.run(ctx, p)
}

// decode checks the input against the schema, then fills P.
func (t *typedTool[P]) decode(input json.RawMessage) (P, error) {
	var p P
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal(input, &v); err != nil {
		return p, fmt.Errorf("the input is not valid JSON (%v)", err)
	}
	if err := t.schema.check(v, ""); err != nil {
		return p, err
	}
	if err := json.Unmarshal(input, &p); err != nil {
		return p, err
	}
	return p, nil
}
