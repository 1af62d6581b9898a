package cli

import "pilot/backend/wire"

// The lines of `pilot -p --json` and `pilot repl --json`: one JSON object
// per line on stdout, told apart by "type". Their shape is the types of
// backend/wire/cli.go, documented in docs/cli-json.md; these are the
// names the terminal writes them by.
type (
	jsonText       = wire.TextLine
	jsonUsage      = wire.UsageLine
	jsonNotice     = wire.NoticeLine
	jsonError      = wire.ErrorLine
	jsonDone       = wire.DoneLine
	jsonToolCall   = wire.ToolCallLine
	jsonToolResult = wire.ToolResultLine
	jsonApproval   = wire.ApprovalLine
	jsonTodos      = wire.TodosLine
)
