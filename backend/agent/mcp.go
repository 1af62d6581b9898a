package agent

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"pilot/backend/gate"
	"pilot/backend/llm"
	"pilot/backend/permission"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// runMCP passes an MCP tool call through the gate (asking the user where
// it says so) and makes it. A server that fails, times out or answers isError gives the model
// an error result; the turn goes on.
func (t *turn) runMCP(ctx context.Context, r *toolRun, p *tools.Proposal) {
	l := t.l
	c := p.MCP
	state, ok := t.permitted(ctx, r, gate.Call{Tool: r.use.Name, Server: c.Server, MCPTool: c.Tool}, wire.Approval{
		Command: fmt.Sprintf("MCP %s: %s %s", c.Server, c.Tool, c.Arguments),
		Server:  c.Server, McpTool: c.Tool, Arguments: string(c.Arguments),
	}, "The user rejected this MCP tool call; it was not made.")
	if !ok {
		return
	}
	t.running(ctx, r)
	res, err := l.registry.Apply(ctx, p, tools.ApplyOptions{})
	switch {
	case err != nil && ctx.Err() != nil:
		r.out = outcome{text: cancelled(true).text, isError: true, status: store.ToolCancelled, approval: state}
	case err != nil:
		r.out = outcome{text: "The MCP call failed: " + err.Error(), isError: true, status: store.ToolError, approval: state}
	default:
		r.out = outcome{text: res.Output + said(r.out.feedback), isError: res.IsError, status: statusOf(res.IsError),
			approval: state, feedback: r.out.feedback}
		t.toolImages(res, &r.out) // stored once in the blob store, sent as images
	}
}

// noticeMCP tells the user when an MCP server's tools stop being offered
// during a turn (the server failed, crashed or hung and is restarting) and
// when they are back.
func (t *turn) noticeMCP(defs []llm.ToolDef) {
	now := map[string]bool{}
	for _, d := range defs {
		if rest, ok := strings.CutPrefix(d.Name, permission.MCPPrefix); ok {
			if server, _, ok := strings.Cut(rest, "__"); ok {
				now[server] = true
			}
		}
	}
	if t.mcpSeen != nil {
		var gone, back []string
		for s := range t.mcpSeen {
			if !now[s] {
				gone = append(gone, s)
			}
		}
		for s := range now {
			if !t.mcpSeen[s] && t.mcpLost[s] {
				back = append(back, s)
			}
		}
		sort.Strings(gone)
		sort.Strings(back)
		for _, s := range gone {
			t.mcpLost[s] = true
			t.l.notice("mcp", fmt.Sprintf("The MCP server %q is not available: its tools are not offered until it has restarted (Settings shows why).", s), 0)
		}
		for _, s := range back {
			delete(t.mcpLost, s)
			t.l.notice("mcp", fmt.Sprintf("The MCP server %q is back: its tools are offered again.", s), 0)
		}
	} else {
		t.mcpLost = map[string]bool{}
	}
	t.mcpSeen = now
}
