package service

import (
	"cmp"
	"context"
	"encoding/base64"
	"fmt"
	"sync"

	"pilot/backend/agent"
	"pilot/backend/config"
	"pilot/backend/llm"
	"pilot/backend/modelfacts"
	"pilot/backend/projectroot"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// Turns runs the agent's turns of a session: a message sent, a turn
// cancelled, retried or compacted, the commands and skills a message
// expands.
type Turns struct{ *core }

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

func (t *Turns) projectRoot(ctx context.Context, projectID int64) (*projectRoot, error) {
	t.roots.mu.Lock()
	defer t.roots.mu.Unlock()
	if pr, ok := t.roots.m[projectID]; ok {
		return pr, nil
	}
	p, err := t.project(ctx, projectID)
	if err != nil {
		return nil, err
	}
	root, err := projectroot.New(p.Path)
	if err != nil {
		return nil, err
	}
	pr := &projectRoot{root: root, registry: tools.New(tools.Deps{Root: root})}
	if t.roots.m == nil {
		t.roots.m = map[int64]*projectRoot{}
	}
	t.roots.m[projectID] = pr
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

func usageView(s store.Session, last llm.Usage, f modelfacts.Facts) wire.Usage {
	cost, known := f.Cost(s.Usage)
	u := wire.Usage{
		InputTokens: s.Usage.InputTokens, OutputTokens: s.Usage.OutputTokens,
		CacheReadTokens: s.Usage.CacheReadTokens, CacheWriteTokens: s.Usage.CacheWriteTokens,
		CostUSD: s.CostUSD, CostKnown: known || s.CostUSD > 0,
		ContextWindow: f.Window.Value, ContextWindowSource: f.Window.From,
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
func (t *Turns) SendMessage(ctx context.Context, id int64, text string, attachments []string) error {
	if err := t.waitStarted(ctx); err != nil {
		return err
	}
	if err := t.elsewhere.refuse(id); err != nil {
		return err
	}
	typed := text
	text, err := t.expandCommand(ctx, id, text)
	if err != nil {
		return err
	}
	if text == typed {
		typed = "" // not a command
	}
	if text, attachments, err = t.withResources(ctx, id, text, attachments); err != nil {
		return err
	}
	// The turn outlives the bound call that started it. The message keeps
	// what the user typed beside a command's expansion.
	return t.agent.SendCommand(context.WithoutCancel(ctx), id, typed, text, attachments)
}

// SendMessageWithImages is SendMessage with images the user pasted or
// dropped (base64); a model known to take no images refuses them with a
// sentence, and nothing is saved.
func (t *Turns) SendMessageWithImages(ctx context.Context, id int64, text string, attachments []string, images []wire.ImageInput) error {
	if err := t.waitStarted(ctx); err != nil {
		return err
	}
	if err := t.elsewhere.refuse(id); err != nil {
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
	return t.agent.SendImages(context.WithoutCancel(ctx), id, text, attachments, imgs)
}

// Image returns a stored image (of a message) by its hash.
func (t *Turns) Image(hash string) (wire.ImageView, error) {
	data, mt, err := t.ledger.Image(hash)
	if err != nil {
		t.log.Warn("reading an image", "hash", hash, "err", err)
		return wire.ImageView{}, fmt.Errorf("the image %.12s… is not stored (it may have been removed with its session): %w", hash, err)
	}
	return wire.ImageView{Hash: hash, MediaType: mt, DataURL: "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(data)}, nil
}

// Retry runs the session's failed turn again from where it failed,
// without adding the user's message again.
func (t *Turns) Retry(ctx context.Context, id int64) error {
	if err := t.waitStarted(ctx); err != nil {
		return err
	}
	if err := t.elsewhere.refuse(id); err != nil {
		return err
	}
	return t.agent.Retry(context.WithoutCancel(ctx), id)
}

// RetryCall makes the session's MCP call toolUseID again after its
// server's sign-in (the card's "Retry"): the same tool and input, judged
// by the gate again, as a turn of its own whose result the model reads
// (agent.Manager.RetryCall).
func (t *Turns) RetryCall(ctx context.Context, id int64, toolUseID string) error {
	if err := t.waitStarted(ctx); err != nil {
		return err
	}
	if err := t.elsewhere.refuse(id); err != nil {
		return err
	}
	return t.agent.RetryCall(context.WithoutCancel(ctx), id, toolUseID)
}

// ReportError logs an error the window shows the user (what failed, in
// which view, for which session; 0: none). Errors of a turn are logged by
// the agent with the provider's details and are not reported again.
func (t *Turns) ReportError(where string, sessionID int64, message string) {
	t.log.Warn("error shown", "view", where, "session", sessionID, "message", message)
}

// Cancel stops the session's running turn, if any.
func (t *Turns) Cancel(id int64) error {
	t.agent.Cancel(id)
	return nil
}

// Compact summarises the session's older turns.
func (t *Turns) Compact(ctx context.Context, id int64) error {
	if err := t.waitStarted(ctx); err != nil {
		return err
	}
	return t.agent.CompactNow(ctx, id)
}

// providerFor builds the model client of a session: the configuration in
// force for its project, with the provider and model the face pinned,
// else those the session was created with (the thinking budget and the
// helpers too, in every face).
func (t *Turns) providerFor(ctx context.Context, s store.Session) (agent.Model, error) {
	r, err := t.sessionConfig(ctx, s)
	if err != nil {
		return agent.Model{}, err
	}
	cfg := r.LLM()
	facts := t.facts.For(ctx, cfg, r.Models, modelOf(cfg))
	if r.MaxTokens.Source == config.SourceDefault {
		cfg.MaxTokens = facts.AnswerLimit()
	}
	prov, err := llm.New(cfg)
	return agent.Model{Provider: prov, Facts: facts, ThinkingBudget: r.ThinkingBudget(), Helpers: r.Settings.Helpers()}, err
}

// sessionConfig is the configuration in force for a session's turns: its
// project's, with the provider and model the session was created with,
// and the face's pin over them.
func (t *Turns) sessionConfig(ctx context.Context, s store.Session) (config.Resolved, error) {
	p, err := t.project(ctx, s.ProjectID)
	if err != nil {
		return config.Resolved{}, err
	}
	return t.resolvePinned(p, func(pn pin) [2]pin { return [2]pin{{s.Provider, s.Model}, pn} })
}

// knownFacts is what is known of a session's model without asking its
// server (the facts of its last turn, or the table's).
func (t *Turns) knownFacts(ctx context.Context, s store.Session) modelfacts.Facts {
	r, err := t.sessionConfig(ctx, s)
	if err != nil {
		return modelfacts.Resolve(s.Model, config.ModelOverride{}, llm.Reported{}, false)
	}
	cfg := r.LLM()
	return t.facts.Known(cfg, r.Models, modelOf(cfg))
}

// modelOf is the model a configuration's calls use.
func modelOf(cfg llm.Config) string {
	return cmp.Or(cfg.Model, llm.DefaultModel(cfg.Provider))
}

// ExpandCommand turns "/name args" into its custom command's (or MCP
// prompt's) text for the session's project; other text comes back as it
// is.
func (t *Turns) ExpandCommand(ctx context.Context, id int64, text string) (string, error) {
	return t.expandCommand(ctx, id, text)
}

// Send starts a turn with text as the model reads it (already expanded:
// no command is looked up); typed is what the user wrote when it was a
// command ("" otherwise), kept beside it for the transcript. The turn
// outlives ctx; Cancel stops it.
func (t *Turns) Send(ctx context.Context, id int64, typed, text string) error {
	if err := t.waitStarted(ctx); err != nil {
		return err
	}
	if err := t.elsewhere.refuse(id); err != nil {
		return err
	}
	return t.agent.SendCommand(context.WithoutCancel(ctx), id, typed, text, nil)
}

// InFlight is the work closing the window would stop: running turns, the
// approvals they wait for and running background jobs (nothing: it can
// close at once).
func (t *Turns) InFlight(ctx context.Context) wire.WorkInFlight {
	out := wire.WorkInFlight{Sessions: []string{}, Jobs: []string{}}
	for _, f := range t.agent.InFlight() {
		out.Waiting += f.Waiting
		out.Sessions = append(out.Sessions, t.svc.Sessions.Title(ctx, f.SessionID))
	}
	for _, j := range t.agent.RunningJobs() {
		out.Jobs = append(out.Jobs, jobName(j)+" (session “"+t.svc.Sessions.Title(ctx, j.SessionID)+"”)")
	}
	return out
}
