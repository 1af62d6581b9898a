package wire

// ReviewResult is what one review found: the findings kept, and a
// sentence for each one the reviewer placed off the changes (moved to the
// nearest changed line, or dropped).
type ReviewResult struct {
	SessionID int64       `json:"sessionId"`
	Scope     ReviewScope `json:"scope"`
	// Findings are those kept, on lines of the changes; Notes say, one
	// sentence each, what was moved or dropped.
	Findings []ReviewFinding `json:"findings"`
	Notes    []string        `json:"notes"`
}

// FindingState is what became of a finding of /review.
type FindingState string

// Finding states.
const (
	FindingOpen      FindingState = "open"      // shown, not acted on
	FindingDismissed FindingState = "dismissed" // the user dismissed it
	FindingFixing    FindingState = "fixing"    // the agent was asked to fix it (a turn of the session)
)

// ReviewScope is what /review reviews.
type ReviewScope string

// Review scopes.
const (
	ReviewUncommitted ReviewScope = "uncommitted" // the project folder's changes against HEAD
	ReviewBranch      ReviewScope = "branch"      // a worktree session's branch against its base
	ReviewSession     ReviewScope = "session"     // what the session changed (its ledger), net
)

// ReviewFinding is one finding of /review, anchored on a line of the
// reviewed files as they are now (Line from 1), stored with the session
// it belongs to. `pilot review --json` prints one per line.
type ReviewFinding struct {
	ID        int64 `json:"id"`
	SessionID int64 `json:"sessionId"`
	// Where: the file ('/'-separated, relative to the reviewed folder),
	// the line, and that line's text when the review was made.
	Path     string `json:"path"`
	Line     int    `json:"line"`
	LineText string `json:"lineText"`
	// What the reviewer says of it, and what the user did with it.
	Text  string       `json:"text"`
	State FindingState `json:"state"`
}
