package service

import (
	"context"
	"encoding/base64"
	"fmt"
	"sync"

	"pilot/backend/agent"
	"pilot/backend/llm"
	"pilot/backend/projectroot"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// roots caches each project's sandbox root (and the tool registry that
// labels its tool calls).
type roots struct {
	mu sync.Mutex
	m  map[int64]*projectRoot
}

type projectRoot struct {
	root     *projectroot.Root
	registry *tools.Registry
}

func (w *Service) projectRoot(ctx context.Context, projectID int64) (*projectRoot, error) {
	w.roots.mu.Lock()
	defer w.roots.mu.Unlock()
	if pr, ok := w.roots.m[projectID]; ok {
		return pr, nil
	}
	p, err := w.project(ctx, projectID)
	if err != nil {
		return nil, err
	}
	root, err := projectroot.New(p.Path)
	if err != nil {
		return nil, err
	}
	pr := &projectRoot{root: root, registry: tools.New(tools.Deps{Root: root})}
	if w.roots.m == nil {
		w.roots.m = map[int64]*projectRoot{}
	}
	w.roots.m[projectID] = pr
	return pr, nil
}

// mergeLive puts what the events carried beyond the store into a snapshot:
// the streamed message's text (the store saves it debounced), running
// commands' output (saved when they end) and which call each approval is for.
func mergeLive(d *wire.SessionDetail, lv agent.Live) {
	if lv.MessageID != 0 {
		var blocks []wire.Block
		if lv.Thinking != "" {
			blocks = append(blocks, wire.Block{Type: "thinking", Text: lv.Thinking})
		}
		if lv.Text != "" {
			blocks = append(blocks, wire.Block{Type: "text", Text: lv.Text})
		}
		found := false
		for i := range d.Messages {
			if d.Messages[i].ID == lv.MessageID {
				d.Messages[i].Blocks, d.Messages[i].State, found = blocks, "streaming", true
			}
		}
		if !found {
			d.Messages = append(d.Messages, wire.Message{ID: lv.MessageID, Role: "assistant", Blocks: blocks, State: "streaming"})
		}
	}
	for i := range d.ToolCalls {
		c := &d.ToolCalls[i]
		if out, ok := lv.Output[c.ID]; ok {
			c.Output = out
		}
		for _, a := range d.Pending {
			if a.ToolCallID == c.ID {
				c.ApprovalID = a.ID
			}
		}
	}
}

func usageView(s store.Session, last llm.Usage) wire.Usage {
	cost, known := llm.Cost(s.Model, s.Usage)
	u := wire.Usage{
		InputTokens: s.Usage.InputTokens, OutputTokens: s.Usage.OutputTokens,
		CacheReadTokens: s.Usage.CacheReadTokens, CacheWriteTokens: s.Usage.CacheWriteTokens,
		CostUSD: s.CostUSD, CostKnown: known || s.CostUSD > 0,
		ContextWindow: llm.ContextWindow(s.Model),
		// The context in use is what the last model call read and wrote.
		ContextTokens: last.InputTokens + last.CacheReadTokens + last.CacheWriteTokens + last.OutputTokens,
	}
	if u.CostUSD == 0 {
		u.CostUSD = cost
	}
	return u
}

// SendMessage starts a turn with the user's text and attached files;
// "/name args" is first expanded into its custom command or MCP prompt.
func (w *Service) SendMessage(ctx context.Context, id int64, text string, attachments []string) error {
	if err := w.waitStarted(ctx); err != nil {
		return err
	}
	if err := w.refuseElsewhere(id); err != nil {
		return err
	}
	typed := text
	text, err := w.expandCommand(ctx, id, text)
	if err != nil {
		return err
	}
	if text == typed {
		typed = "" // not a command
	}
	if text, attachments, err = w.withResources(ctx, id, text, attachments); err != nil {
		return err
	}
	// The turn outlives the bound call that started it. The message keeps
	// what the user typed beside a command's expansion.
	return w.agent.SendCommand(context.WithoutCancel(ctx), id, typed, text, attachments)
}

// SendMessageWithImages is SendMessage with images the user pasted or
// dropped (base64); a model known to take no images refuses them with a
// sentence, and nothing is saved.
func (w *Service) SendMessageWithImages(ctx context.Context, id int64, text string, attachments []string, images []wire.ImageInput) error {
	if err := w.waitStarted(ctx); err != nil {
		return err
	}
	if err := w.refuseElsewhere(id); err != nil {
		return err
	}
	imgs := make([]agent.Image, 0, len(images))
	for i, in := range images {
		data, err := base64.StdEncoding.DecodeString(in.Data)
		if err != nil {
			return fmt.Errorf("image %d of the message could not be read (bad base64): %w", i+1, err)
		}
		imgs = append(imgs, agent.Image{MediaType: in.MediaType, Data: data})
	}
	return w.agent.SendImages(context.WithoutCancel(ctx), id, text, attachments, imgs)
}

// GetImage returns a stored image (of a message) by its hash.
func (w *Service) GetImage(hash string) (wire.ImageView, error) {
	data, mt, err := w.ledger.Image(hash)
	if err != nil {
		w.log.Warn("reading an image", "hash", hash, "err", err)
		return wire.ImageView{}, fmt.Errorf("the image %.12s… is not stored (it may have been removed with its session): %w", hash, err)
	}
	return wire.ImageView{Hash: hash, MediaType: mt, DataURL: "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(data)}, nil
}

// RetryTurn runs the session's failed turn again from where it failed,
// without adding the user's message again.
func (w *Service) RetryTurn(ctx context.Context, id int64) error {
	if err := w.waitStarted(ctx); err != nil {
		return err
	}
	if err := w.refuseElsewhere(id); err != nil {
		return err
	}
	return w.agent.Retry(context.WithoutCancel(ctx), id)
}

// ReportError logs an error the window shows the user (what failed, in
// which view, for which session; 0: none). Errors of a turn are logged by
// the agent with the provider's details and are not reported again.
func (w *Service) ReportError(where string, sessionID int64, message string) {
	w.log.Warn("error shown", "view", where, "session", sessionID, "message", message)
}

// CancelTurn stops the session's running turn, if any.
func (w *Service) CancelTurn(id int64) error {
	w.agent.Cancel(id)
	return nil
}

// CompactNow summarises the session's older turns.
func (w *Service) CompactNow(ctx context.Context, id int64) error {
	if err := w.waitStarted(ctx); err != nil {
		return err
	}
	return w.agent.CompactNow(ctx, id)
}

// GetChange returns a pending change with every file's hunks.
func (w *Service) GetChange(approvalID string) (wire.ChangeView, error) {
	return w.agent.Approvals().Change(approvalID)
}

// ProposedText is the text a pending change proposes for one of its files
// (the start of the user's edit).
func (w *Service) ProposedText(approvalID, path string) (string, error) {
	v, err := w.agent.Approvals().Change(approvalID)
	if err != nil {
		return "", fmt.Errorf("this change is no longer waiting for a decision: %w", err)
	}
	for _, f := range v.Files {
		if f.Path == path {
			return f.NewText, nil
		}
	}
	return "", fmt.Errorf("the change proposes nothing for %s", path)
}

// DecideChange answers a pending change.
func (w *Service) DecideChange(approvalID string, d wire.ChangeDecision) error {
	if err := w.agent.Approvals().DecideChange(approvalID, d); err != nil {
		return fmt.Errorf("this change is no longer waiting for a decision: %w", err)
	}
	return nil
}

// DecideCommand answers a pending command.
func (w *Service) DecideCommand(approvalID string, d wire.CommandDecision) error {
	if err := w.agent.Approvals().DecideCommand(approvalID, d); err != nil {
		return fmt.Errorf("this command is no longer waiting for a decision: %w", err)
	}
	return nil
}
