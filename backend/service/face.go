package service

import (
	"io"
	"log/slog"

	"pilot/backend/agent"
	"pilot/backend/config"
	"pilot/backend/logging"
	"pilot/backend/paths"
	"pilot/backend/permission"
	"pilot/backend/sandbox"
	"pilot/backend/todo"
	"pilot/backend/version"
	"pilot/backend/wire"
)

// What the faces need besides the methods of Service: where Pilot keeps
// its data, the log, the build's version, the sandbox's pod, the approval
// modes, the task list's changes and a
// presented plan, so that a face imports only this package and wire.

// Home is Pilot's data folder (PILOT_HOME, else the default under the
// user's home), created if missing.
func Home(getenv func(string) string) (string, error) {
	home, err := paths.Home(getenv)
	if err != nil {
		return "", err
	}
	return home, paths.Ensure(home)
}

// OpenLog opens the log of a run in home's log folder, with the secrets
// of the environment and the settings redacted; the closer closes it.
func OpenLog(home string, getenv func(string) string) (*slog.Logger, io.Closer, error) {
	return logging.Open(paths.LogDir(home), slog.LevelInfo, config.LogRedactor(getenv))
}

// Version is the build's version and commit (`pilot version`, the
// window's About box).
func Version() version.Info { return version.Get() }

// RunPodIfAsked runs this executable as a session sandbox's pod when the
// sandbox started it for that (and then never returns); else it returns
// at once. The entry calls it first.
func RunPodIfAsked() { sandbox.RunPodIfAsked() }

// ParseMode reads an approval mode as a flag or /mode gives it (any case,
// "" is ask); an unknown one is an error that lists the modes.
func ParseMode(s string) (wire.ApprovalMode, error) {
	m, err := permission.ParseMode(s)
	return wire.ApprovalMode(m), err
}

// MessageTooLargeError is the error of Send for a message that cannot fit
// in the model's context window.
type MessageTooLargeError = agent.MessageTooLargeError

// TodoChanges describes how a task list changed from prev to next, one
// sentence per task added, started, done, reopened or removed.
func TodoChanges(prev, next []wire.TodoItem) []string {
	return todo.Changes(todoItems(prev), todoItems(next))
}

func todoItems(list []wire.TodoItem) []todo.Item {
	out := make([]todo.Item, len(list))
	for i, it := range list {
		out[i] = todo.Item{Content: it.Content, Status: todo.Status(it.Status)}
	}
	return out
}

// PresentedPlan is the plan of a present_plan call that ran (plan mode),
// in Markdown, with its steps; ok is false for any other call.
func PresentedPlan(c wire.ToolCall) (plan string, steps []string, ok bool) {
	return presentedPlan(c.Name, c.Status, c.Input)
}
