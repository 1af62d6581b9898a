package service

import (
	"errors"

	"pilot/backend/rules"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// ErrNotFound is what a method returns (wrapped) for a session, project,
// message, checkpoint or rule that does not exist.
var ErrNotFound = store.ErrNotFound

// ErrInvalid is what a method returns (wrapped) for an argument that names
// something of the wrong kind, such as a message that is not a user
// message, or a file that is not a session export.
var ErrInvalid = store.ErrInvalid

// InvalidRule is the error of Rules.Add for a rule that could never match;
// its Sentence says why.
type InvalidRule = rules.Invalid

// ErrNoSession: the session asked for does not exist.
var ErrNoSession = errors.New("there is no such session")

// SessionStart is how a session starts; zero values take the
// configuration in force (with the face's pinned provider and model).
type SessionStart struct {
	Mode            wire.ApprovalMode
	Provider, Model string
	// Worktree, when set, is the NAME of a new git worktree the session
	// works in, on the branch pilot/NAME (see Worktrees.NewSession).
	Worktree string
}
