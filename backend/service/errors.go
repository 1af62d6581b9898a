package service

import (
	"pilot/backend/rules"
	"pilot/backend/store"
)

// ErrNotFound is what a method returns (wrapped) for a session, project,
// message, checkpoint or rule that does not exist.
var ErrNotFound = store.ErrNotFound

// ErrInvalid is what a method returns (wrapped) for an argument that names
// something of the wrong kind, such as a message that is not a user
// message, or a file that is not a session export.
var ErrInvalid = store.ErrInvalid

// InvalidRule is the error of AddRule for a rule that could never match;
// its Sentence says why.
type InvalidRule = rules.Invalid
