package cli

import (
	"io"
	"os"
	"reflect"
	"strings"

	"golang.org/x/term"

	"pilot/backend/cli/visible"
)

// Outside text (a project file's hook command, a server's name, the
// model's command) reaches the terminal with every character visible
// (docs/ARCHITECTURE.md, "Outside text"): Run writes everything through
// visible.Writer, and the fields of what a person reads on one line or
// decides on are made visible with visible.Line where they are printed
// (lineFields), so a line break or a backslash in them is told too.

// visibleIO returns tio with stderr, and stdout unless the command
// writes data there (the answer of -p and repl, an export), written
// through visible.Writer; done flushes them.
func visibleIO(args []string, tio IO) (_ IO, done func()) {
	stderr := visible.NewWriter(tio.Stderr)
	tio.Stderr = stderr
	if dataOut(args) {
		return tio, func() { stderr.Flush() }
	}
	stdout := visible.NewWriter(tio.Stdout)
	tio.Stdout = stdout
	return tio, func() { stdout.Flush(); stderr.Flush() }
}

// dataOut reports whether the command's stdout is data a program may
// read as it is: the answer of pilot -p and repl, and sessions export,
// which make it visible themselves when stdout is a terminal (and JSON
// always, as visible.Writer keeps its value).
func dataOut(args []string) bool {
	switch {
	case args[0] == "-p", args[0] == "--prompt", args[0] == "repl",
		strings.HasPrefix(args[0], "-p="), strings.HasPrefix(args[0], "--prompt="):
		return true
	}
	return args[0] == "sessions" && len(args) > 1 && args[1] == "export"
}

// shownOut is w for data: w itself when it is a program's (a pipe, a
// file), made visible when it is a terminal, or when asJSON
// (visible.Writer keeps JSON's value, so either way); flush writes what
// it holds.
func shownOut(w io.Writer, asJSON bool) (out io.Writer, flush func()) {
	f, ok := w.(*os.File)
	if !asJSON && !(ok && term.IsTerminal(int(f.Fd()))) {
		return w, func() {}
	}
	v := visible.NewWriter(w)
	return v, func() { v.Flush() }
}

// lineFields returns a copy of v with every string in it (struct fields,
// elements, map keys and values, through pointers and interfaces) made
// visible with visible.Line: a printer calls it on what it is about to
// print, so a field added later is covered too. Bytes (json.RawMessage)
// are left as they are.
func lineFields[T any](v T) T {
	out := lineValue(reflect.ValueOf(&v).Elem())
	return out.Interface().(T)
}

func lineValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		nv := reflect.New(v.Type()).Elem()
		nv.SetString(visible.Line(v.String()))
		return nv
	case reflect.Struct:
		nv := reflect.New(v.Type()).Elem()
		nv.Set(v)
		for i := range v.NumField() {
			if f := nv.Field(i); f.CanSet() {
				f.Set(lineValue(v.Field(i)))
			}
		}
		return nv
	case reflect.Slice:
		if v.IsNil() || v.Type().Elem().Kind() == reflect.Uint8 {
			return v
		}
		nv := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			nv.Index(i).Set(lineValue(v.Index(i)))
		}
		return nv
	case reflect.Array:
		nv := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			nv.Index(i).Set(lineValue(v.Index(i)))
		}
		return nv
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		nv := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			nv.SetMapIndex(lineValue(it.Key()), lineValue(it.Value()))
		}
		return nv
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		nv := reflect.New(v.Type().Elem())
		nv.Elem().Set(lineValue(v.Elem()))
		return nv
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		nv := reflect.New(v.Type()).Elem()
		nv.Set(lineValue(v.Elem()))
		return nv
	}
	return v
}
