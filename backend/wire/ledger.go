package wire

// The change ledger as the window shows it: what each change and command
// did to the project's files, and the results of reverting or rewinding.

// FileEffect is what one checkpoint did to one file. Kept is false when
// the content from before was not stored (over the size limit, or removed
// by the retention setting), or the ledger lists the file without keeping
// it (Listed): such an effect cannot be reverted. Why, when set, says what
// is not kept.
type FileEffect struct {
	Path string   `json:"path"`
	Op   LedgerOp `json:"op"`
	Kept bool     `json:"kept"`
	// Why is set when Kept is false: "over 8 MiB, not kept", "removed to stay under the retention limit", "in a git folder: not kept".
	Why string `json:"why,omitempty"`
	// RunsCode says why the file, as the step left it, can run code ("a
	// git hook", "executable", "MCP servers: ..."); absent when it cannot.
	RunsCode string `json:"runsCode,omitempty"`
	// Listed: a file a command changed that the ledger lists but keeps
	// none of (in a .git folder, ignored, over the per-command limit): no
	// diff, no revert.
	Listed bool `json:"listed,omitempty"`
	// Folder: a .git folder the command made, not a file.
	Folder bool `json:"folder,omitempty"`
}

// Checkpoint is one recorded step of a session: the files an approved
// change or command touched, or a revert or rewind.
type Checkpoint struct {
	ID         int64          `json:"id"`
	Kind       CheckpointKind `json:"kind"`
	ToolCallID string         `json:"toolCallId,omitempty"` // the model's tool_use id (edit, command)
	MessageID  int64          `json:"messageId"`            // the session's latest message when it was taken
	Label      string         `json:"label"`                // "→ Editing main.go", "$ make gen", "Reverted main.go", "Rewound to message 3"
	// Note tells the limits hit, in a sentence ("12 files changed; only the first 1,000 are listed").
	Note      string       `json:"note,omitempty"`
	Omitted   int          `json:"omitted,omitempty"` // files changed but not listed (over the per-command limit)
	Files     []FileEffect `json:"files"`
	Undone    bool         `json:"undone"` // a later revert or rewind undid all of it
	CreatedAt int64        `json:"createdAt"`
}

// LedgerFile is one file a session changed: its net effect from before the
// session to now, and the checkpoints that touched it, oldest first.
type LedgerFile struct {
	Path string `json:"path"`
	// Kind is the net effect: created, modified or deleted ("" when the
	// file is back to what it was before the session).
	Kind        LedgerOp `json:"kind"`
	Checkpoints []int64  `json:"checkpoints"`
	Revertable  bool     `json:"revertable"` // every content needed to restore it is kept
	// RunsCode says why the file, as the session's last step left it, can
	// run code; absent when it cannot.
	RunsCode string `json:"runsCode,omitempty"`
	// Listed: a step listed the file without keeping it (see FileEffect):
	// it is not reverted, diffed or committed from Pilot.
	Listed bool `json:"listed,omitempty"`
}

// Ledger is everything a session changed.
type Ledger struct {
	SessionID   int64        `json:"sessionId"`
	Files       []LedgerFile `json:"files"`
	Checkpoints []Checkpoint `json:"checkpoints"`
}

// FileDiff is the diff between two states of one file. A side whose
// content is not available has Missing set and no text.
type FileDiff struct {
	Path      string `json:"path"`
	OldExists bool   `json:"oldExists"`
	NewExists bool   `json:"newExists"`
	OldText   string `json:"oldText"`
	NewText   string `json:"newText"`
	Binary    bool   `json:"binary"`
	Missing   string `json:"missing,omitempty"`
	Hunks     []Hunk `json:"hunks"`
}

// AppliedFile is one file of a change as decided: the proposed hunks with
// the user's decision on each, and the diff that was written.
type AppliedFile struct {
	Path      string         `json:"path"`
	Op        LedgerOp       `json:"op"`        // created or modified
	Decisions []HunkDecision `json:"decisions"` // per proposed hunk
	Applied   int            `json:"applied"`   // hunks approved
	Total     int            `json:"total"`
	Edited    bool           `json:"edited"` // the user wrote over the proposal
	Written   bool           `json:"written"`
}

// ChangeSummary is what became of a file change, shown on its card.
type ChangeSummary struct {
	CheckpointID int64         `json:"checkpointId,omitempty"` // 0 when nothing was written
	Applied      int           `json:"applied"`                // hunks applied, all files
	Total        int           `json:"total"`
	Edited       bool          `json:"edited"`
	Files        []AppliedFile `json:"files"`
	Undone       bool          `json:"undone"`
	// Recovery is set when a crash interrupted the change's writing and
	// the next start finished it: "completed on restart", "undone on
	// restart" or "not applied".
	Recovery string `json:"recovery,omitempty"`
}

// CommandEffects is what an approved command did to the project's files.
type CommandEffects struct {
	CheckpointID int64        `json:"checkpointId"`
	Files        []FileEffect `json:"files"`
	Omitted      int          `json:"omitted,omitempty"`
	Note         string       `json:"note,omitempty"`
	Undone       bool         `json:"undone"`
}

// ChangeDetail is a change's card expanded: each file's proposed hunks
// with their decisions, and the diff that was applied.
type ChangeDetail struct {
	Summary ChangeSummary `json:"summary"`
	// Proposed holds the hunks as proposed, one entry per file of Summary.Files.
	Proposed []FileChange `json:"proposed"`
	// Applied holds the diff written, one entry per file of Summary.Files
	// (empty hunks when nothing was written).
	Applied []FileDiff `json:"applied"`
}

// Conflict is a file that changed outside Pilot since its checkpoint:
// restoring it would overwrite that. Mine is the file on disk now;
// Checkpoint is the version the restore would write.
type Conflict struct {
	Path       string   `json:"path"`
	Mine       FileDiff `json:"mine"` // OldText: what Pilot last wrote; NewText: the disk now
	Checkpoint FileDiff `json:"checkpoint"`
}

// RestoreInput is how a revert or rewind resolves conflicts: path → mine
// or checkpoint. A conflict left unresolved stops the restore before
// anything is written.
type RestoreInput struct {
	Resolutions map[string]Resolution `json:"resolutions"`
}

// RestoreResult says what a revert or rewind did. When Conflicts is not
// empty nothing was written: resolve them and call again.
type RestoreResult struct {
	Done      bool         `json:"done"`
	Conflicts []Conflict   `json:"conflicts"`
	Restored  []FileEffect `json:"restored"`
	Kept      []string     `json:"kept"` // conflicts resolved as mine: left as they are
	// Missing lists files that could not be restored: their earlier
	// content was not kept (Why says why).
	Missing []FileEffect `json:"missing"`
	// NotKept lists the files the steps undone changed that the ledger
	// listed without keeping them (in .git folders, ignored, over the
	// per-command limit): left as they are (RunsCode says which can run
	// code).
	NotKept      []FileEffect `json:"notKept,omitempty"`
	CheckpointID int64        `json:"checkpointId"` // the revert's own checkpoint (undo it to undo the revert)
	// SessionID is the session to show afterwards: the fork when the
	// conversation was rewound, else the same session.
	SessionID int64  `json:"sessionId"`
	Message   string `json:"message"` // one sentence for the user
}

// LedgerUpdatedPayload says a session's ledger changed (a change or
// command was recorded, or something was reverted).
type LedgerUpdatedPayload struct {
	SessionID int64 `json:"sessionId"`
}
