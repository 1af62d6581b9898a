package main

// MCPCancelSignIn abandons an MCP server's sign-in still waiting for the
// browser.
func (a *App) MCPCancelSignIn(name string) error { return a.ws().MCP.CancelSignIn(name) }

// RetryToolCall makes a session's MCP call again after its server's
// sign-in (the card's "Retry"): the same tool and input, judged again,
// as a turn of its own whose result the model reads.
func (a *App) RetryToolCall(sessionID int64, toolUseID string) error {
	return a.ws().Turns.RetryCall(a.ctx, sessionID, toolUseID)
}
