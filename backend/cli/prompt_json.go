package cli

import (
	"encoding/json"

	"pilot/backend/wire"
)

// The lines of `pilot -p --json` and `pilot repl --json`: one JSON object
// per line on stdout, told apart by "type". They are stable: fields and
// types may be added, none is renamed or removed (README, "The --json
// lines"). Every field is always present unless marked omitempty.

// jsonText is a piece of the assistant's answer as it streams.
type jsonText struct {
	Type string `json:"type"` // "text"
	Text string `json:"text"`
}

// jsonUsage is the tokens and cost after a model call.
type jsonUsage struct {
	Type  string     `json:"type"` // "usage"
	Usage wire.Usage `json:"usage"`
}

// jsonNotice is something the agent did on its own (a compaction, a retry).
type jsonNotice struct {
	Type string `json:"type"` // "notice"
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// jsonError is an error that ends the turn.
type jsonError struct {
	Type    string `json:"type"` // "error"
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// jsonDone is the end of the turn, always the last line of a turn.
type jsonDone struct {
	Type      string `json:"type"` // "done"
	Reason    string `json:"reason"`
	SessionID int64  `json:"sessionId"`
}

// jsonToolCall announces a tool call, once.
type jsonToolCall struct {
	Type     string          `json:"type"` // "tool_call"
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Label    string          `json:"label"`
	Input    json.RawMessage `json:"input"`
	ParentID string          `json:"parentId,omitempty"` // a helper's call: the id of its task call
}

// jsonToolResult is how a tool call ended.
type jsonToolResult struct {
	Type    string               `json:"type"` // "tool_result"
	ID      string               `json:"id"`
	Name    string               `json:"name"`
	Status  string               `json:"status"`
	IsError bool                 `json:"isError"`
	Output  string               `json:"output"`
	Change  *wire.ChangeSummary  `json:"change,omitempty"`  // a file change, once decided
	Effects *wire.CommandEffects `json:"effects,omitempty"` // files an approved command changed
}

// jsonApproval is a question the run answered (headless, without a
// terminal, every question is refused).
type jsonApproval struct {
	Type        string   `json:"type"` // "approval"
	ID          string   `json:"id"`
	Kind        string   `json:"kind"`
	Tool        string   `json:"tool"`
	Paths       []string `json:"paths"`
	Command     string   `json:"command"`
	Server      string   `json:"server"`
	McpTool     string   `json:"mcpTool"`
	Arguments   string   `json:"arguments"`
	Host        string   `json:"host"`
	Port        int      `json:"port,omitempty"`   // network: the port the command wants to reach
	Reason      string   `json:"reason,omitempty"` // outside_sandbox: the model's reason
	AlwaysRules []string `json:"alwaysRules"`
	Decision    string   `json:"decision"` // "approved" or "rejected"
}

// jsonTodos is the whole task list after it changed.
type jsonTodos struct {
	Type  string          `json:"type"` // "todos"
	Todos []wire.TodoItem `json:"todos"`
}
