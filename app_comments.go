package main

import "pilot/backend/wire"

// LineComments returns a session's comments on lines, oldest first.
func (a *App) LineComments(sessionID int64) ([]wire.LineComment, error) {
	return a.ws().Comments.List(a.ctx, sessionID)
}

// SaveLineComment adds a comment on a line (id 0) or changes one not sent
// yet, and returns it as stored.
func (a *App) SaveLineComment(c wire.LineComment) (wire.LineComment, error) {
	return a.ws().Comments.Save(a.ctx, c)
}

// DeleteLineComment removes a comment not sent yet.
func (a *App) DeleteLineComment(sessionID, id int64) error {
	return a.ws().Comments.Delete(a.ctx, sessionID, id)
}

// SendReview sends the session's draft comments to the model as one
// review message.
func (a *App) SendReview(sessionID int64) error {
	return a.ws().Comments.SendReview(a.ctx, sessionID)
}
