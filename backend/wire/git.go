package wire

// GitStatus is a folder's git state for the window's header: its branch
// and how many files have uncommitted changes. Repo is false, with Why,
// for a folder outside git or when git is missing.
type GitStatus struct {
	Repo        bool   `json:"repo"`
	Branch      string `json:"branch"` // "" when HEAD is detached
	Uncommitted int    `json:"uncommitted"`
	Why         string `json:"why,omitempty"`
}

// BranchView is a worktree session's branch against the commit it was
// made from, for review: every file the branch changed, committed or not,
// with its hunks in the review's own form. Hunks are numbered across the
// files from 1 in the order shown: the numbers `pilot worktree merge
// --hunks` takes.
type BranchView struct {
	SessionID int64        `json:"sessionId"`
	Branch    string       `json:"branch"`
	Base      string       `json:"base"` // the base commit, abbreviated
	Worktree  string       `json:"worktree"`
	Files     []FileChange `json:"files"`
	// Version names the branch's content as read (every file's path,
	// modes, base and current bytes): a merge that gives it is refused
	// when the branch changed since, so decisions never land on hunks the
	// user did not see.
	Version string `json:"version"`
}

// BranchMerge asks to bring approved hunks of a branch into the project
// folder: Files[i].Hunks[j] approves hunk j of that file; a file not
// named is left out. Force merges over the user's own uncommitted changes
// where the hunks still apply.
type BranchMerge struct {
	Files []FileDecision `json:"files"`
	Force bool           `json:"force"`
	// Version is the BranchView.Version the decisions were made on; ""
	// when the caller reads and merges in one go (pilot worktree merge).
	Version string `json:"version,omitempty"`
}

// MergeResult is what a merge did: the files written in the project
// folder, the files it did not write and why, and the project-folder
// session whose Changes view holds the merge (so it can be undone).
type MergeResult struct {
	Merged    []string        `json:"merged"`
	Conflicts []MergeConflict `json:"conflicts"`
	SessionID int64           `json:"sessionId"`
}

// MergeConflict is a file a merge did not write, and why.
type MergeConflict struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// CommitResult is a commit made for a session: on its branch (a worktree
// session) or in the project folder (the files the session changed).
type CommitResult struct {
	Commit string   `json:"commit"` // abbreviated
	Files  []string `json:"files"`
}
