package mcp

import (
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"pilot/backend/wire"
)

// Limits of an elicitation: a server's request is outside input, shown to
// the user and kept with the call, so a larger one is declined whole.
const (
	MaxElicitMessage = 4000 // characters of the message
	MaxElicitFields  = 30   // fields of the form
	MaxElicitText    = 1000 // characters of a field's name, title or description, or an option
	MaxElicitOptions = 100  // options of one field
)

// Form reads an elicitation's requested schema (already checked by the
// SDK to be a flat object of primitives) into the form shown to the user.
// Its fields come in the order of the schema's required list, then the
// others by name: the SDK hands the schema over as a map, whose order is
// lost. A request over the limits is an error saying which.
func Form(server, message string, schema any) (wire.Elicitation, error) {
	e := wire.Elicitation{Server: server, Message: message, Fields: []wire.ElicitField{}}
	if n := utf8.RuneCountInString(message); n > MaxElicitMessage {
		return e, fmt.Errorf("its message has %d characters, more than the %d Pilot shows", n, MaxElicitMessage)
	}
	var s *jsonschema.Schema
	if schema != nil {
		b, err := json.Marshal(schema)
		if err != nil || json.Unmarshal(b, &s) != nil {
			return e, fmt.Errorf("its requested schema is not a JSON schema")
		}
	}
	if s == nil {
		return e, nil
	}
	if len(s.Properties) > MaxElicitFields {
		return e, fmt.Errorf("its form has %d fields, more than the %d Pilot shows", len(s.Properties), MaxElicitFields)
	}
	for _, name := range fieldOrder(s) {
		f, err := formField(name, s.Properties[name], slices.Contains(s.Required, name))
		if err != nil {
			return e, err
		}
		e.Fields = append(e.Fields, f)
	}
	return e, nil
}

// fieldOrder is the required properties in the schema's order, then the
// others by name.
func fieldOrder(s *jsonschema.Schema) []string {
	var out, rest []string
	for _, name := range s.Required {
		if _, ok := s.Properties[name]; ok && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	for name := range s.Properties {
		if !slices.Contains(out, name) {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

func formField(name string, p *jsonschema.Schema, required bool) (wire.ElicitField, error) {
	f := wire.ElicitField{Name: name, Required: required}
	if p == nil {
		return f, fmt.Errorf("its field %q has no schema", name)
	}
	f.Title, f.Description, f.Format = p.Title, p.Description, p.Format
	f.MinLength, f.MaxLength, f.Minimum, f.Maximum, f.MinItems, f.MaxItems = p.MinLength, p.MaxLength, p.Minimum, p.Maximum, p.MinItems, p.MaxItems
	if len(p.Default) > 0 && string(p.Default) != "null" {
		f.Default = p.Default
	}
	switch p.Type {
	case "string", "":
		f.Type = wire.FieldString
		f.Options = options(p.Enum, p.OneOf, enumNames(p))
	case "number":
		f.Type = wire.FieldNumber
	case "integer":
		f.Type = wire.FieldInteger
	case "boolean":
		f.Type = wire.FieldBoolean
	case "array":
		f.Type = wire.FieldMulti
		if p.Items != nil {
			f.Options = options(p.Items.Enum, p.Items.AnyOf, nil)
		}
	default:
		return f, fmt.Errorf("its field %q has the type %q, which a form cannot ask for", name, p.Type)
	}
	for _, text := range []string{name, f.Title, f.Description} {
		if utf8.RuneCountInString(text) > MaxElicitText {
			return f, fmt.Errorf("its field %q has a name, title or description longer than %d characters", cut(name), MaxElicitText)
		}
	}
	if len(f.Options) > MaxElicitOptions {
		return f, fmt.Errorf("its field %q has %d options, more than the %d Pilot shows", cut(name), len(f.Options), MaxElicitOptions)
	}
	for _, o := range f.Options {
		if utf8.RuneCountInString(o.Value)+utf8.RuneCountInString(o.Title) > MaxElicitText {
			return f, fmt.Errorf("an option of its field %q is longer than %d characters", cut(name), MaxElicitText)
		}
	}
	return f, nil
}

// options are a choice's values with their titles: an enum (with the
// legacy enumNames as titles), or titled entries (oneOf, anyOf: const
// and title).
func options(enum []any, titled []*jsonschema.Schema, names []string) []wire.ElicitOption {
	var out []wire.ElicitOption
	for i, v := range enum {
		o := wire.ElicitOption{Value: fmt.Sprint(v)}
		if i < len(names) {
			o.Title = names[i]
		}
		out = append(out, o)
	}
	for _, t := range titled {
		if t != nil && t.Const != nil {
			out = append(out, wire.ElicitOption{Value: fmt.Sprint(*t.Const), Title: t.Title})
		}
	}
	return out
}

func enumNames(p *jsonschema.Schema) []string {
	raw, _ := p.Extra["enumNames"].([]any)
	out := make([]string, 0, len(raw))
	for _, v := range raw {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

// cut shortens a server's name of a field for a sentence.
func cut(s string) string {
	if utf8.RuneCountInString(s) <= 60 {
		return s
	}
	return string([]rune(s)[:60]) + "…"
}

// CheckAnswer checks the content the user gives with accept against the
// form: a JSON object of its fields only, every required one present,
// each of its type and within its bounds. The error says every mistake,
// one sentence each, by the field's title.
func CheckAnswer(e wire.Elicitation, content json.RawMessage) (map[string]any, error) {
	values := map[string]any{}
	if len(content) > 0 && string(content) != "null" {
		if err := json.Unmarshal(content, &values); err != nil {
			return nil, fmt.Errorf("the answer must be a JSON object of the form's fields")
		}
	}
	var bad []string
	known := map[string]bool{}
	for _, f := range e.Fields {
		known[f.Name] = true
		v, ok := values[f.Name]
		if !ok || v == nil {
			delete(values, f.Name)
			if f.Required {
				bad = append(bad, fmt.Sprintf("%s is required.", label(f)))
			}
			continue
		}
		if why := checkValue(f, v); why != "" {
			bad = append(bad, label(f)+" "+why)
		}
	}
	for k := range values {
		if !known[k] {
			bad = append(bad, fmt.Sprintf("The form has no field %q.", cut(k)))
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return nil, fmt.Errorf("%s", strings.Join(bad, " "))
	}
	return values, nil
}

// label is how a sentence names a field: its title, else its name.
func label(f wire.ElicitField) string {
	if f.Title != "" {
		return "«" + cut(f.Title) + "»"
	}
	return "«" + cut(f.Name) + "»"
}

// checkValue says what is wrong with v for f ("" when nothing).
func checkValue(f wire.ElicitField, v any) string {
	switch f.Type {
	case wire.FieldString:
		s, ok := v.(string)
		if !ok {
			return "must be text."
		}
		return checkText(f, s)
	case wire.FieldNumber, wire.FieldInteger:
		n, ok := v.(float64)
		if !ok {
			return "must be a number."
		}
		if f.Type == wire.FieldInteger && n != math.Trunc(n) {
			return "must be a whole number."
		}
		if f.Minimum != nil && n < *f.Minimum {
			return fmt.Sprintf("must be at least %g.", *f.Minimum)
		}
		if f.Maximum != nil && n > *f.Maximum {
			return fmt.Sprintf("must be at most %g.", *f.Maximum)
		}
	case wire.FieldBoolean:
		if _, ok := v.(bool); !ok {
			return "must be yes or no."
		}
	case wire.FieldMulti:
		return checkChoices(f, v)
	}
	return ""
}

func checkText(f wire.ElicitField, s string) string {
	if len(f.Options) > 0 {
		if !hasOption(f, s) {
			return "must be one of the choices offered."
		}
		return ""
	}
	n := utf8.RuneCountInString(s)
	switch {
	case f.MinLength != nil && n < *f.MinLength:
		return fmt.Sprintf("must have at least %d characters.", *f.MinLength)
	case f.MaxLength != nil && n > *f.MaxLength:
		return fmt.Sprintf("must have at most %d characters.", *f.MaxLength)
	}
	switch f.Format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return "must be an email address, like name@example.com."
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" || strings.ContainsAny(s, " \t\n") {
			return "must be a full address with its scheme, like https://example.com/."
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return "must be a date written YYYY-MM-DD."
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return "must be a date and time written YYYY-MM-DDThh:mm:ssZ (RFC 3339)."
		}
	}
	return ""
}

func checkChoices(f wire.ElicitField, v any) string {
	list, ok := v.([]any)
	if !ok {
		return "must be a list of the choices offered."
	}
	seen := map[string]bool{}
	for _, x := range list {
		s, ok := x.(string)
		if !ok || !hasOption(f, s) || seen[s] {
			return "must list choices offered, each once."
		}
		seen[s] = true
	}
	switch {
	case f.MinItems != nil && len(list) < *f.MinItems:
		return fmt.Sprintf("must have at least %d choices.", *f.MinItems)
	case f.MaxItems != nil && len(list) > *f.MaxItems:
		return fmt.Sprintf("must have at most %d choices.", *f.MaxItems)
	}
	return ""
}

func hasOption(f wire.ElicitField, s string) bool {
	return slices.ContainsFunc(f.Options, func(o wire.ElicitOption) bool { return o.Value == s })
}
