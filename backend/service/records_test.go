package service

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"pilot/backend/doctor"
	"pilot/backend/mcp"
	"pilot/backend/store"
)

// The command line's --json records (wire/cli.go) print exactly what the
// store's, the MCP hub's and the doctor's own types printed before they
// existed: every field, same name, same value, same absence. Each source
// value has every field set (and then none), so a field added to the
// source and not to its record fails here.
func TestRecordsPrintAsTheirSource(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		source  any
		convert func(any) any
	}{
		{"session", store.Session{}, func(v any) any { return sessionRecord(v.(store.Session)) }},
		{"search hit", store.SearchHit{}, func(v any) any { return searchRecord(v.(store.SearchHit)) }},
		{"transcript", store.Transcript{}, func(v any) any { return transcript(v.(store.Transcript)) }},
		{"mcp status", mcp.Status{}, func(v any) any { return mcpStatus(v.(mcp.Status)) }},
		{"doctor report", doctor.Report{}, func(v any) any { return doctorReport(v.(doctor.Report)) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			full := reflect.New(reflect.TypeOf(tc.source)).Elem()
			fill(full, 0)
			for _, src := range []any{tc.source, full.Interface()} {
				want, err := json.Marshal(src)
				if err != nil {
					t.Fatal(err)
				}
				got, err := json.Marshal(tc.convert(src))
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want) {
					t.Errorf("record\n%s\nsource\n%s", got, want)
				}
			}
		})
	}
}

// fill sets every exported field of v, at every depth, to a value that is
// not its zero: slices and maps get one element.
func fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + v.Type().Name())
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.UnixMilli(1700000000123)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth)
			}
		}
	case reflect.Slice:
		switch {
		case v.Type() == reflect.TypeFor[json.RawMessage]():
			v.SetBytes([]byte(`{"k":1}`))
		case v.Type().Elem().Kind() == reflect.Uint8:
			v.SetBytes([]byte("b"))
		case depth < 3:
			s := reflect.MakeSlice(v.Type(), 1, 1)
			fill(s.Index(0), depth+1)
			v.Set(s)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Pointer:
		if depth < 3 {
			p := reflect.New(v.Type().Elem())
			fill(p.Elem(), depth+1)
			v.Set(p)
		}
	}
}
