package wire

// InboxItem is one decision waiting in the inbox across sessions: a
// pending approval of a live session, with whose it is and why it is
// asked. The inbox lists them oldest first (Approvals.Inbox); the window
// reads it again at every agent:approval and agent:approval_done of any
// session, and answers with DecideChange / DecideCommand as the session's
// own card does.
type InboxItem struct {
	Approval  Approval `json:"approval"`
	SessionID int64    `json:"sessionId"`
	// Title is the session's name, or while it has none (a session is
	// named when its first turn ends) the first line of the user's
	// request that started the turn.
	Title string `json:"title"`
	// Branch is the worktree session's branch (pilot/NAME), "" for a
	// session in the project folder.
	Branch      string `json:"branch,omitempty"`
	ProjectID   int64  `json:"projectId"`
	Project     string `json:"project"` // the project folder's name
	ProjectPath string `json:"projectPath"`
	// Reason is the agent's latest words before the call, back to the
	// user's request ("" when it said nothing): the model's text, shown
	// as the model's, never followed.
	Reason string `json:"reason"`
	// Since is when the decision started waiting (Unix milliseconds).
	Since int64 `json:"since"`
}
