package agent

import (
	"context"
	"encoding/json"
	"sync"

	"pilot/backend/approval"
	"pilot/backend/mcp"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// forms answers the elicitations of one MCP call (mcp.Asker): an MCP
// server's request for input while its tool call runs is shown as a form
// on the call's card (an approval of kind elicitation, answered with
// DecideElicitation; no gate judges it: only the user can fill it), and
// kept with the call with its answer. The effect closes it once the call
// has returned, which waits for a form still being answered: the call's
// context ended with the call, so that form ends as cancelled.
type forms struct {
	c    *call
	one  sync.Mutex // one form at a time on a card
	mu   sync.Mutex
	shut bool
	busy sync.WaitGroup
	kept []wire.Elicitation
}

// ask is the mcp.Asker of the call.
func (f *forms) ask(ctx context.Context, e wire.Elicitation) (wire.ElicitationDecision, error) {
	f.mu.Lock()
	if f.shut {
		f.mu.Unlock()
		return wire.ElicitationDecision{}, context.Canceled
	}
	f.busy.Add(1)
	f.mu.Unlock()
	defer f.busy.Done()
	f.one.Lock()
	defer f.one.Unlock()
	c := f.c
	l := c.t.l
	a := wire.Approval{ID: approval.NewID(), ToolCallID: c.r.use.ID, Tool: c.r.use.Name, Server: e.Server, Elicitation: &e}
	c.awaiting(ctx, a.ID)
	ans, err := l.m.broker.AskElicitation(ctx, l.id, a, func(content json.RawMessage) error {
		_, err := mcp.CheckAnswer(e, content)
		return err
	})
	d := wire.ElicitationDecision{Action: wire.ElicitCancel}
	if err == nil {
		d = *ans.Elicitation
		c.running(ctx)
	}
	e.Action, e.Why = d.Action, d.Why
	if d.Action == wire.ElicitAccept {
		e.Content = d.Content
	}
	f.keep(ctx, e)
	return d, err
}

// keep stores the form with its answer on the call and shows it.
func (f *forms) keep(ctx context.Context, e wire.Elicitation) {
	r, l := f.c.r, f.c.t.l
	f.kept = append(f.kept, e)
	b, _ := json.Marshal(f.kept)
	if err := l.m.st.ToolCalls.SetRecord(context.WithoutCancel(ctx), r.rec.ID, store.RecordElicitations, string(b)); err != nil {
		l.m.log.Warn("saving an elicitation", "session", l.id, "err", err)
	}
	r.view.Elicitations = append([]wire.Elicitation(nil), f.kept...)
	l.emitTool(r.view)
}

// close refuses forms from now on and waits for one being answered.
func (f *forms) close() {
	f.mu.Lock()
	f.shut = true
	f.mu.Unlock()
	f.busy.Wait()
}
