package store

import (
	"context"
	"database/sql"
	"time"
)

// WebPage is a page web_fetch read in a session, kept whole so that it is
// found by Search even when the model was sent only part of it.
type WebPage struct {
	ID         int64     `json:"id"`
	SessionID  int64     `json:"sessionId"`
	ToolCallID int64     `json:"toolCallId,omitempty"` // tool_calls.id of the web_fetch call
	MessageID  int64     `json:"messageId"`            // the assistant message that asked for it
	URL        string    `json:"url"`
	Title      string    `json:"title"`
	Markdown   string    `json:"markdown"`
	FetchedAt  time.Time `json:"fetchedAt"`
}

// Add stores a fetched page. SessionID, MessageID and URL are
// required; FetchedAt defaults to now.
func (s *WebPages) Add(ctx context.Context, p WebPage) (WebPage, error) {
	if p.FetchedAt.IsZero() {
		p.FetchedAt = s.now()
	}
	var call any
	if p.ToolCallID > 0 {
		call = p.ToolCallID
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO web_pages (session_id, tool_call_id, message_id, url, title, markdown, fetched_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			p.SessionID, call, p.MessageID, p.URL, p.Title, p.Markdown, millis(p.FetchedAt)).Scan(&p.ID)
	})
	return p, constraint(err)
}

// List returns the pages fetched in a session, oldest first.
func (s *WebPages) List(ctx context.Context, sessionID int64) ([]WebPage, error) {
	return queryAll(ctx, s.r, func(row rowScanner) (WebPage, error) {
		var p WebPage
		var at int64
		err := row.Scan(&p.ID, &p.SessionID, &p.ToolCallID, &p.MessageID, &p.URL, &p.Title, &p.Markdown, &at)
		p.FetchedAt = fromMillis(at)
		return p, err
	}, `SELECT id, session_id, coalesce(tool_call_id, 0), message_id, url, title, markdown, fetched_at
		FROM web_pages WHERE session_id = ? ORDER BY id`, sessionID)
}

// searchPages finds the project's fetched pages holding every word; the
// hit points at the message whose web_fetch call read the page.
func (s *Store) searchPages(ctx context.Context, projectID int64, match string, limit int) ([]SearchHit, error) {
	return queryAll(ctx, s.r, scanHit(HitWebPage), `
		SELECT w.session_id, s.title, w.message_id, bm25(web_pages_fts),
			snippet(web_pages_fts, -1, ?2, ?3, ?4, ?5)
		FROM web_pages_fts
		JOIN web_pages w ON w.id = web_pages_fts.rowid
		JOIN sessions s ON s.id = w.session_id
		WHERE web_pages_fts MATCH ?1 AND s.project_id = ?6
		ORDER BY bm25(web_pages_fts) LIMIT ?7`,
		match, MarkOpen, MarkClose, Ellipsis, snippetTokens, projectID, limit)
}
