package wire

// CommentOrigin is the view a line comment was made in.
type CommentOrigin string

// Comment origins.
const (
	CommentOnChange  CommentOrigin = "change"  // a pending change (OriginRef: its approval id)
	CommentOnChanges CommentOrigin = "changes" // the Changes view (a file's history)
	CommentOnBranch  CommentOrigin = "branch"  // a worktree session's Branch view
	CommentOnPlan    CommentOrigin = "plan"    // a plan card (Path: "plan")
)

// CommentState is where a line comment stands.
type CommentState string

// Comment states.
const (
	CommentDraft    CommentState = "draft"    // written, not sent yet
	CommentSent     CommentState = "sent"     // sent to the model in a review
	CommentOutdated CommentState = "outdated" // its line is gone from the change re-proposed
)

// LineComment is a session's comment as stored.
type LineComment struct {
	ID        int64 `json:"id"`
	SessionID int64 `json:"sessionId"`
	Comment
}

// Comment is a comment on a line (or lines Line to EndLine) of a file as
// a diff shows it: the number is the line's in the file after the change,
// LineText the line's text when the comment was made (what a re-proposed
// change is matched against, and what the model is shown).
type Comment struct {
	Path      string        `json:"path"`
	Line      int           `json:"line"`
	EndLine   int           `json:"endLine,omitempty"` // 0: the comment is on Line alone
	LineText  string        `json:"lineText"`
	Text      string        `json:"text"`
	Origin    CommentOrigin `json:"origin"`
	OriginRef string        `json:"originRef,omitempty"`
	State     CommentState  `json:"state"`
}
