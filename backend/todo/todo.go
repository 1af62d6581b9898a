// Package todo holds a session's task list: the items the model keeps with
// the todo_write tool (each call replaces the whole list), their checks,
// and the words that describe a change of the list to a person.
//
// The list is not stored apart: it is the input of the session's latest
// todo_write call that succeeded, so a fork, a rewind or an import carries
// the list as it was at that point of the conversation.
package todo

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"pilot/backend/toolname"
)

// ToolName is the tool that replaces the list.
const ToolName = toolname.TodoWrite

// Status is where an item stands.
type Status string

const (
	Pending    Status = "pending"
	InProgress Status = "in_progress"
	Done       Status = "done"
)

// Limits of a list, so that a runaway call cannot fill the window.
const (
	MaxItems   = 50
	MaxContent = 300 // characters of one item
)

// Item is one task.
type Item struct {
	Content string `json:"content" desc:"What the task is, in a few words the user understands (\"Add the --json flag to export\")."`
	Status  Status `json:"status" enum:"pending,in_progress,done" desc:"pending, in_progress (at most one task at a time) or done."`
}

// Input is the input of todo_write (its tags give the tool's schema).
type Input struct {
	Todos []Item `json:"todos" desc:"The whole list, in order. It replaces the previous list: send every task each time, with its current status."`
}

// Validate checks a list the model sent; the error is written for it.
func Validate(items []Item) error {
	if len(items) > MaxItems {
		return fmt.Errorf("the list has %d items; keep it to at most %d (merge small steps)", len(items), MaxItems)
	}
	var working []int
	for i, it := range items {
		switch {
		case strings.TrimSpace(it.Content) == "":
			return fmt.Errorf("todos[%d] has no content: say what the task is", i)
		case utf8.RuneCountInString(it.Content) > MaxContent:
			return fmt.Errorf("todos[%d] is %d characters long; keep each task to %d", i, utf8.RuneCountInString(it.Content), MaxContent)
		}
		switch it.Status {
		case Pending, Done:
		case InProgress:
			working = append(working, i+1)
		default:
			return fmt.Errorf("todos[%d] has the status %q; use pending, in_progress or done", i, it.Status)
		}
	}
	if len(working) > 1 {
		return fmt.Errorf("tasks %s are all in_progress; at most one task may be in_progress at a time", joinInts(working))
	}
	return nil
}

// Parse reads a todo_write input. A list that does not pass Validate is
// an error: such a call failed and never became the session's list.
func Parse(input json.RawMessage) ([]Item, error) {
	var in Input
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	if in.Todos == nil {
		return nil, errors.New("no todos")
	}
	if err := Validate(in.Todos); err != nil {
		return nil, err
	}
	return in.Todos, nil
}

// Count returns how many items are done, and how many there are.
func Count(items []Item) (done, total int) {
	for _, it := range items {
		if it.Status == Done {
			done++
		}
	}
	return done, len(items)
}

// Summary is the tool result of a successful call, for the model.
func Summary(items []Item) string {
	if len(items) == 0 {
		return "The task list is now empty."
	}
	done, total := Count(items)
	var current string
	pending := 0
	for _, it := range items {
		switch it.Status {
		case InProgress:
			current = it.Content
		case Pending:
			pending++
		}
	}
	s := fmt.Sprintf("The task list is updated and shown to the user: %d of %d done, %d pending", done, total, pending)
	if current != "" {
		s += fmt.Sprintf(", in progress: %q", current)
	}
	return s + "."
}

// Changes describes how next differs from prev, one line per task that
// was added, started, finished, reopened or removed, in list order (the
// removed ones last). Tasks are matched by their content.
func Changes(prev, next []Item) []string {
	before := map[string]Status{}
	for _, it := range prev {
		before[it.Content] = it.Status
	}
	done, total := Count(next)
	var out []string
	seen := map[string]bool{}
	for _, it := range next {
		seen[it.Content] = true
		old, had := before[it.Content]
		switch {
		case !had && it.Status == Done:
			out = append(out, fmt.Sprintf("Task done: %s (%d/%d)", it.Content, done, total))
		case !had && it.Status == InProgress:
			out = append(out, "Task started: "+it.Content)
		case !had:
			out = append(out, "Task added: "+it.Content)
		case old == it.Status:
		case it.Status == Done:
			out = append(out, fmt.Sprintf("Task done: %s (%d/%d)", it.Content, done, total))
		case it.Status == InProgress:
			out = append(out, "Task started: "+it.Content)
		default:
			out = append(out, "Task reopened: "+it.Content)
		}
	}
	for _, it := range prev {
		if !seen[it.Content] {
			out = append(out, "Task removed: "+it.Content)
		}
	}
	return out
}

// Markdown renders the list as a Markdown checklist.
func Markdown(items []Item) string {
	var b strings.Builder
	for _, it := range items {
		mark := " "
		if it.Status == Done {
			mark = "x"
		}
		fmt.Fprintf(&b, "- [%s] %s", mark, it.Content)
		if it.Status == InProgress {
			b.WriteString(" (in progress)")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ", ")
}
