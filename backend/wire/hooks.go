package wire

// HookRun is one run of a settings.json hook, shown on the tool card it
// ran for (ToolCall.Hooks) or as a notice for the events of a turn.
type HookRun struct {
	// Event is the hook event (PreToolUse, PostToolUse, Stop, ...).
	Event string `json:"event"`
	// Hook is the hook's command, as written in its file.
	Hook string `json:"hook"`
	// File is the settings file the hook is written in.
	File     string       `json:"file"`
	Decision HookDecision `json:"decision"`
	// Ms is how long it ran, in milliseconds.
	Ms       int64 `json:"ms"`
	ExitCode int   `json:"exitCode"`
	TimedOut bool  `json:"timedOut,omitempty"`
	// Message is one sentence on what came of the run (its reason, the
	// timeout, the failure).
	Message string `json:"message,omitempty"`
	// Stdout and Stderr are what it printed, cut with a note past the cap.
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
}
