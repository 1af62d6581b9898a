package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// Message is one stored turn of a session.
type Message struct {
	ID        int64              `json:"id"`
	SessionID int64              `json:"sessionId"`
	Seq       int                `json:"seq"` // 0, 1, 2... in conversation order
	Role      llm.Role           `json:"role"`
	Content   []llm.ContentBlock `json:"content"`
	Usage     llm.Usage          `json:"usage"` // tokens of the call that produced it (assistant)
	State     wire.MessageState  `json:"state"`
	CreatedAt time.Time          `json:"createdAt"`
}

// LLM returns the message as the providers take it.
func (m Message) LLM() llm.Message { return llm.Message{Role: m.Role, Content: m.Content} }

const messageCols = `id, session_id, seq, role, content,
	input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, state, created_at`

func scanMessage(row rowScanner) (Message, error) {
	m, content, err := scanMessageRow(row)
	if err != nil {
		return Message{}, err
	}
	if err := decodeBlocks(content, &m.Content); err != nil {
		return Message{}, fmt.Errorf("message %d content: %w", m.ID, err)
	}
	return m, nil
}

// scanMessageRow scans messageCols, leaving the content as stored.
func scanMessageRow(row rowScanner) (m Message, content string, err error) {
	var created int64
	err = row.Scan(&m.ID, &m.SessionID, &m.Seq, &m.Role, &content,
		&m.Usage.InputTokens, &m.Usage.OutputTokens, &m.Usage.CacheReadTokens, &m.Usage.CacheWriteTokens,
		&m.State, &created)
	m.CreatedAt = fromMillis(created)
	return m, content, err
}

// encodeBlocks is the stored form of a message's content.
func encodeBlocks(blocks []llm.ContentBlock) (string, error) {
	if blocks == nil {
		return "[]", nil
	}
	b, err := json.Marshal(blocks)
	return string(b), err
}

// Append commits a whole message at the end of a session. u is the
// usage of the call that produced it (zero for user messages); the session
// totals are kept by Sessions.UpdateUsage.
func (s *Messages) Append(ctx context.Context, sessionID int64, m llm.Message, u llm.Usage) (Message, error) {
	return writeOne(ctx, s.database, func(tx *sql.Tx) (Message, error) {
		return s.insertMessage(ctx, tx, sessionID, m, u, wire.MessageComplete)
	})
}

// insertMessage appends a message inside a write transaction.
func (s *database) insertMessage(ctx context.Context, tx *sql.Tx, sessionID int64, m llm.Message, u llm.Usage, state wire.MessageState) (Message, error) {
	content, err := encodeBlocks(m.Content)
	if err != nil {
		return Message{}, err
	}
	now := millis(s.now())
	if err := touchSession(ctx, tx, sessionID, now); err != nil {
		return Message{}, fmt.Errorf("session %d: %w", sessionID, err)
	}
	row := tx.QueryRowContext(ctx, `
		INSERT INTO messages (session_id, seq, role, content, input_tokens, output_tokens,
			cache_read_tokens, cache_write_tokens, state, created_at)
		VALUES (?1, (SELECT COALESCE(MAX(seq), -1) + 1 FROM messages WHERE session_id = ?1),
			?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING `+messageCols,
		sessionID, string(m.Role), content, u.InputTokens, u.OutputTokens,
		u.CacheReadTokens, u.CacheWriteTokens, string(state), now)
	out, err := scanMessage(row)
	return out, constraint(err)
}

// List returns every message of a session in order.
func (s *Messages) List(ctx context.Context, sessionID int64) ([]Message, error) {
	return listMessages(ctx, s.r, sessionID)
}

func listMessages(ctx context.Context, q querier, sessionID int64) ([]Message, error) {
	return listMessagesBetween(ctx, q, sessionID, 0, math.MaxInt64)
}

// listMessagesBetween returns the session's messages with from <= seq < to, in order.
func listMessagesBetween(ctx context.Context, q querier, sessionID, from, to int64) ([]Message, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+messageCols+` FROM messages WHERE session_id = ? AND seq >= ? AND seq < ? ORDER BY seq`, sessionID, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ms []Message
	var contents []string
	for rows.Next() {
		m, content, err := scanMessageRow(rows) // database/sql hands over the driver's string without a copy
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
		contents = append(contents, content)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return ms, decodeContents(ms, contents)
}

// decodeContents unmarshals the messages' blocks, on every CPU when there
// are many: JSON decoding is most of the time it takes to open a long
// session.
func decodeContents(ms []Message, contents []string) error {
	const chunk = 128
	errs := make([]error, (len(ms)+chunk-1)/chunk)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for c := range errs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			for i := c * chunk; i < min(len(ms), (c+1)*chunk); i++ {
				if err := decodeBlocks(contents[i], &ms[i].Content); err != nil {
					errs[c] = fmt.Errorf("message %d content: %w", ms[i].ID, err)
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
