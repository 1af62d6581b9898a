package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// jsonSchema is the subset of JSON Schema the tools need.
type jsonSchema struct {
	Type                 string      `json:"type"`
	Description          string      `json:"description,omitempty"`
	Properties           *properties `json:"properties,omitempty"`
	Required             []string    `json:"required,omitempty"`
	Items                *jsonSchema `json:"items,omitempty"`
	Enum                 []string    `json:"enum,omitempty"`
	AdditionalProperties *bool       `json:"additionalProperties,omitempty"`
}

// properties keeps the struct's field order in the JSON output.
type properties struct {
	names   []string
	schemas []*jsonSchema
}

func (p *properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, n := range p.names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		v, err := json.Marshal(p.schemas[i])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (p *properties) get(name string) *jsonSchema {
	for i, n := range p.names {
		if n == name {
			return p.schemas[i]
		}
	}
	return nil
}

// schemaOf derives the JSON schema of a params struct from its fields:
// the `json` tag gives the name, `omitempty` or a pointer type makes the
// parameter optional, the `desc` tag gives its description and the `enum`
// tag (comma-separated) the only values a string may take. It panics on
// a type it cannot describe: params structs are fixed at compile time and a
// test builds every tool's schema.
func schemaOf(t reflect.Type) *jsonSchema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return &jsonSchema{Type: "string"}
	case reflect.Bool:
		return &jsonSchema{Type: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &jsonSchema{Type: "integer"}
	case reflect.Float32, reflect.Float64:
		return &jsonSchema{Type: "number"}
	case reflect.Slice:
		return &jsonSchema{Type: "array", Items: schemaOf(t.Elem())}
	case reflect.Struct:
		no := false
		s := &jsonSchema{Type: "object", Properties: &properties{}, AdditionalProperties: &no}
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			fs := schemaOf(f.Type)
			fs.Description = f.Tag.Get("desc")
			if e := f.Tag.Get("enum"); e != "" {
				fs.Enum = strings.Split(e, ",")
			}
			s.Properties.names = append(s.Properties.names, name)
			s.Properties.schemas = append(s.Properties.schemas, fs)
			if !strings.Contains(opts, "omitempty") && f.Type.Kind() != reflect.Pointer {
				s.Required = append(s.Required, name)
			}
		}
		return s
	}
	panic(fmt.Sprintf("tools: no JSON schema for %s", t))
}

// check compares a decoded JSON value with the schema: missing required
// parameters, unknown parameters and wrong JSON types, named by their path
// (for example "edits[1].old_text"). The message is written for the model.
func (s *jsonSchema) check(v any, at string) error {
	name := at
	if name == "" {
		name = "the input"
	}
	switch s.Type {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s must be a JSON object, got %s", name, jsonKind(v))
		}
		for _, r := range s.Required {
			if _, ok := obj[r]; !ok {
				return fmt.Errorf("the required parameter %q is missing", join(at, r))
			}
		}
		for k, val := range obj {
			ps := s.Properties.get(k)
			if ps == nil {
				return fmt.Errorf("unknown parameter %q; the parameters are %s", join(at, k), strings.Join(s.Properties.names, ", "))
			}
			if val == nil && !slices.Contains(s.Required, k) {
				continue // an optional parameter sent as null
			}
			if err := ps.check(val, join(at, k)); err != nil {
				return err
			}
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%q must be a JSON array, got %s", name, jsonKind(v))
		}
		for i, e := range arr {
			if err := s.Items.check(e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case "integer":
		n, ok := v.(float64)
		if !ok || n != float64(int64(n)) {
			return fmt.Errorf("%q must be an integer, got %s", name, jsonKind(v))
		}
	case "number":
		if _, ok := v.(float64); !ok {
			return fmt.Errorf("%q must be a number, got %s", name, jsonKind(v))
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("%q must be a string, got %s", name, jsonKind(v))
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, str) {
			return fmt.Errorf("%q must be one of %s, got %s", name, strings.Join(s.Enum, ", "), jsonKind(v))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%q must be true or false, got %s", name, jsonKind(v))
		}
	}
	return nil
}

func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", truncate(x, 40))
	case float64:
		return fmt.Sprintf("the number %v", x)
	case bool:
		return fmt.Sprintf("%v", x)
	case []any:
		return "an array"
	default:
		return "an object"
	}
}
