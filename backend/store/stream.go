package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// StreamSaveInterval is the most often a Stream writes its text.
const StreamSaveInterval = 250 * time.Millisecond

// Stream saves an assistant answer while it arrives. Create it with
// BeginStream, call Update with the text so far as often as deltas come,
// then Finish with the whole message (or Interrupt when the turn is
// cancelled). A crash loses at most the last StreamSaveInterval of text;
// the next Open marks the message interrupted.
//
// A Stream is safe for concurrent use.
type Stream struct {
	s   *Messages
	ctx context.Context
	id  int64 // message id

	mu      sync.Mutex
	pending string // latest text not yet saved
	dirty   bool
	last    time.Time   // when text was last saved
	timer   *time.Timer // flushes pending text after a quiet spell
	err     error       // first failed save, reported by the next call
	closed  bool
}

// BeginStream adds an empty assistant message in state streaming at the end
// of the session. Writes outlive cancellation of ctx, so a cancelled turn
// can still save what it received.
func (s *Messages) BeginStream(ctx context.Context, sessionID int64) (*Stream, error) {
	m, err := writeOne(ctx, s.database, func(tx *sql.Tx) (Message, error) {
		return s.insertMessage(ctx, tx, sessionID, llm.Message{Role: llm.RoleAssistant}, llm.Usage{}, wire.MessageStreaming)
	})
	if err != nil {
		return nil, err
	}
	return &Stream{s: s, ctx: context.WithoutCancel(ctx), id: m.ID, last: time.Now()}, nil
}

// MessageID is the id of the message being streamed.
func (st *Stream) MessageID() int64 { return st.id }

// Update sets the text received so far. It saves at most once per
// StreamSaveInterval; text that arrives in between is saved when the
// interval ends even if no further Update comes.
func (st *Stream) Update(text string) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return ErrStreamClosed
	}
	if err := st.err; err != nil {
		return err
	}
	st.pending, st.dirty = text, true
	wait := StreamSaveInterval - time.Since(st.last)
	if wait <= 0 {
		return st.flushLocked()
	}
	if st.timer == nil {
		st.timer = time.AfterFunc(wait, st.flushLater)
	}
	return nil
}

// flushLater is the timer's save of pending text.
func (st *Stream) flushLater() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.timer = nil
	if st.closed || st.err != nil {
		return
	}
	st.err = st.flushLocked()
}

// flushLocked saves the pending text as the message's only text block.
func (st *Stream) flushLocked() error {
	if !st.dirty {
		return nil
	}
	content, err := encodeBlocks([]llm.ContentBlock{llm.TextBlock(st.pending)})
	if err != nil {
		return err
	}
	err = st.s.write(st.ctx, func(tx *sql.Tx) error {
		return affected(tx.ExecContext(st.ctx, `UPDATE messages SET content = ? WHERE id = ? AND state = 'streaming'`, content, st.id))
	})
	if err != nil {
		return fmt.Errorf("save streamed message %d: %w", st.id, err)
	}
	st.dirty, st.last = false, time.Now()
	return nil
}

// closeLocked stops the timer and marks the stream done. A failed timer
// save does not matter any more: the final write replaces the text.
func (st *Stream) closeLocked() error {
	if st.closed {
		return ErrStreamClosed
	}
	st.closed = true
	if st.timer != nil {
		st.timer.Stop()
		st.timer = nil
	}
	return nil
}

// Finish commits the whole message (its final blocks, including thinking
// and tool_use) with the usage of the call, replacing the streamed text.
func (st *Stream) Finish(blocks []llm.ContentBlock, u llm.Usage) (Message, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.closeLocked(); err != nil {
		return Message{}, err
	}
	content, err := encodeBlocks(blocks)
	if err != nil {
		return Message{}, err
	}
	return st.commit(wire.MessageComplete, content, u)
}

// Interrupt ends the stream keeping the text received so far, in state
// interrupted (the user stopped the turn, or the provider failed). A
// message that received no text is removed, since an empty assistant
// message is not valid to send back to a provider.
func (st *Stream) Interrupt() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.closeLocked(); err != nil {
		return err
	}
	if st.pending == "" {
		return st.s.write(st.ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(st.ctx, `DELETE FROM messages WHERE id = ?`, st.id)
			return err
		})
	}
	content, err := encodeBlocks([]llm.ContentBlock{llm.TextBlock(st.pending)})
	if err != nil {
		return err
	}
	_, err = st.commit(wire.MessageInterrupted, content, llm.Usage{})
	return err
}

func (st *Stream) commit(state wire.MessageState, content string, u llm.Usage) (Message, error) {
	var m Message
	err := st.s.write(st.ctx, func(tx *sql.Tx) error {
		row := tx.QueryRowContext(st.ctx, `UPDATE messages SET content = ?, state = ?,
			input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_write_tokens = ?
			WHERE id = ? RETURNING `+messageCols,
			content, string(state), u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens, st.id)
		var err error
		if m, err = scanMessage(row); err != nil {
			return err
		}
		return touchSession(st.ctx, tx, m.SessionID, millis(st.s.now()))
	})
	if err != nil {
		return Message{}, fmt.Errorf("commit streamed message %d: %w", st.id, err)
	}
	return m, nil
}
