package todo

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestChanges(t *testing.T) {
	t.Parallel()
	a, b, c := Item{"A", Pending}, Item{"B", Pending}, Item{"C", Pending}
	with := func(it Item, s Status) Item { it.Status = s; return it }
	for _, tc := range []struct {
		name       string
		prev, next []Item
		want       []string
	}{
		{"first list", nil, []Item{a, b}, []string{"Task added: A", "Task added: B"}},
		{"start", []Item{a, b}, []Item{with(a, InProgress), b}, []string{"Task started: A"}},
		{"finish and start", []Item{with(a, InProgress), b}, []Item{with(a, Done), with(b, InProgress)}, []string{"Task done: A (1/2)", "Task started: B"}},
		{"reopen", []Item{with(a, Done)}, []Item{a}, []string{"Task reopened: A"}},
		{"add and remove", []Item{a, b}, []Item{a, c}, []string{"Task added: C", "Task removed: B"}},
		{"new and done at once", nil, []Item{with(a, Done), b}, []string{"Task done: A (1/2)", "Task added: B"}},
		{"nothing changed", []Item{a}, []Item{a}, nil},
		{"cleared", []Item{a}, []Item{}, []string{"Task removed: A"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Changes(tc.prev, tc.next); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Changes = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	many := make([]Item, MaxItems+1)
	for i := range many {
		many[i] = Item{"x", Pending}
	}
	for _, tc := range []struct {
		name  string
		items []Item
		want  string // part of the error, "" for none
	}{
		{"ok", []Item{{"a", Done}, {"b", InProgress}, {"c", Pending}}, ""},
		{"empty list", []Item{}, ""},
		{"two in progress", []Item{{"a", InProgress}, {"b", Done}, {"c", InProgress}}, "tasks 1, 3 are all in_progress"},
		{"bad status", []Item{{"a", "completed"}}, `status "completed"`},
		{"blank", []Item{{" ", Pending}}, "todos[0] has no content"},
		{"too long", []Item{{strings.Repeat("é", MaxContent+1), Pending}}, "301 characters"},
		{"too many", many, "at most 50"},
	} {
		err := Validate(tc.items)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := Parse(json.RawMessage(`{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"in_progress"}]}`)); err == nil {
		t.Error("Parse took a list Validate refuses")
	}
	if _, err := Parse(json.RawMessage(`{}`)); err == nil {
		t.Error("Parse took an input without todos")
	}
}
