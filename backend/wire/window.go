package wire

// Events of the window itself (not of a session).
const (
	// AppOpenProject: a second launch (`pilot DIR`, the launcher) asked the
	// running window to open a folder; the service has opened it.
	AppOpenProject = "app:open_project"
	// AppOpenSession: the user clicked the notification of a session.
	AppOpenSession = "app:open_session"
	// AppConfirmQuit: the window was asked to close while work is in flight.
	AppConfirmQuit = "app:confirm_quit"
)

// OpenProjectPayload is the folder a second launch opened, or why it
// could not be (Error, a sentence; Path is then what was asked).
type OpenProjectPayload struct {
	Path  string `json:"path"`
	Error string `json:"error,omitempty"`
}

// OpenSessionPayload names the session to show and its project's folder;
// ApprovalID, when set, is the waiting decision the notification was
// about, which the window shows in the inbox.
type OpenSessionPayload struct {
	ProjectPath string `json:"projectPath"`
	SessionID   int64  `json:"sessionId"`
	ApprovalID  string `json:"approvalId,omitempty"`
}

// WorkInFlight is what closing the window would stop: the sessions whose
// turn runs (titles) and how many approvals wait among them.
type WorkInFlight struct {
	Sessions []string `json:"sessions"`
	Waiting  int      `json:"waiting"`
	// Jobs names the background jobs still running ("python3 -m
	// http.server (session “Fix the tests”)"); quitting stops them.
	Jobs []string `json:"jobs"`
}
