package cli

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// decodeStrict decodes one JSON document into a new T, failing the test
// on a field T does not declare (at any depth) and on a top-level field T
// always writes (no omitempty or omitzero) that the document lacks: the
// --json output has exactly the shape of its type in backend/wire/cli.go.
func decodeStrict[T any](t *testing.T, doc string) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not a %T: %v\n%s", v, err, doc)
	}
	if dec.More() {
		t.Fatalf("more than one %T in\n%s", v, doc)
	}
	if missing := missingFields(reflect.TypeFor[T](), []byte(doc)); len(missing) > 0 {
		t.Errorf("%T without %v:\n%s", v, missing, doc)
	}
	return v
}

// decodeLines decodes every line of out strictly into a T.
func decodeLines[T any](t *testing.T, out string) []T {
	t.Helper()
	var vs []T
	for line := range strings.Lines(out) {
		vs = append(vs, decodeStrict[T](t, line))
	}
	return vs
}

// missingFields lists the JSON names of typ's always-written fields that
// the object doc lacks.
func missingFields(typ reflect.Type, doc []byte) []string {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(doc))
	if dec.Decode(&raw) != nil || typ.Kind() != reflect.Struct {
		return nil
	}
	var missing []string
	for f := range typ.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, ok := raw[name]; !ok {
			missing = append(missing, name)
		}
	}
	return missing
}
