package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"pilot/backend/mcp"
	"pilot/backend/mcpauth"
)

// MCP is the MCP servers of the session's project (an *mcp.Hub): their
// tools are offered next to the eight built-in ones, named
// mcp__<server>__<tool>, and read again before every model call, so a
// server that fails loses its tools and one that restarts gets them back.
type MCP interface {
	Tools() []mcp.ToolInfo
	Call(ctx context.Context, name string, args json.RawMessage) (mcp.Result, error)
}

// MCPCall is a proposed call of an MCP tool.
type MCPCall struct {
	Name      string          `json:"name"` // mcp__<server>__<tool>
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// mcpTool is one MCP tool as a Tool. Like run_bash it only proposes: the
// call happens in Apply, after the permission check or the user's yes.
type mcpTool struct{ info mcp.ToolInfo }

func (t mcpTool) Name() string { return t.info.Name }
func (t mcpTool) Description() string {
	return fmt.Sprintf("[MCP server %q, tool %q] %s", t.info.Server, t.info.Tool, t.info.Description)
}
func (t mcpTool) Schema() json.RawMessage { return t.info.Schema }
func (t mcpTool) ReadOnly() bool          { return false }

func (t mcpTool) Label(input json.RawMessage) string {
	return fmt.Sprintf("→ MCP %s: %s %s", t.info.Server, t.info.Tool, truncate(compactJSON(input), 100))
}

func (t mcpTool) Execute(_ context.Context, input json.RawMessage) (Result, error) {
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage("{}")
	}
	var obj map[string]any
	if err := json.Unmarshal(input, &obj); err != nil {
		return errorf("The input of %s must be a JSON object (%v). The input schema is %s", t.info.Name, err, t.info.Schema), nil
	}
	call := &MCPCall{Name: t.info.Name, Server: t.info.Server, Tool: t.info.Tool, Arguments: json.RawMessage(compactJSON(input))}
	return Result{Output: fmt.Sprintf("Proposed: call the tool %q of the MCP server %q.", t.info.Tool, t.info.Server), Proposal: &Proposal{Tool: t.info.Name, MCP: call}}, nil
}

func compactJSON(in json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, in) != nil {
		return string(in)
	}
	return b.String()
}

// mcpTools returns the MCP tools offered now.
func (r *Registry) mcpTools() []Tool {
	if r.deps.MCP == nil {
		return nil
	}
	infos := r.deps.MCP.Tools()
	out := make([]Tool, 0, len(infos))
	for _, i := range infos {
		out = append(out, mcpTool{info: i})
	}
	return out
}

// callMCP carries out an approved MCP call. The server's own errors
// (isError results, a crash, a timeout, a server that is gone) come back
// as a Result with IsError for the model; only cancellation is an error.
func (r *Registry) callMCP(ctx context.Context, c *MCPCall) (Result, error) {
	if r.deps.MCP == nil {
		return errorf("The MCP server %q is not available in this session.", c.Server), nil
	}
	res, err := r.deps.MCP.Call(ctx, c.Name, c.Arguments)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		if signIn := (*mcpauth.SignInError)(nil); errors.As(err, &signIn) {
			r := errorf("The MCP call failed: %v. The user has to sign in to the server first (the window offers it on this call's card and retries the call after); do not call its tools again until then, and go on without them meanwhile.", err)
			r.SignIn = signIn.Server
			return r, nil
		}
		return errorf("The MCP call failed: %v. The server's tools are offered again once it is ready; try another way meanwhile.", err), nil
	}
	var out capture
	out.Write([]byte(res.Text))
	text := out.String()
	if strings.TrimSpace(text) == "" && len(res.Images) == 0 {
		text = "(the tool returned nothing)"
	}
	imgs := make([]Image, len(res.Images))
	for i, im := range res.Images {
		imgs[i] = Image{MediaType: im.MediaType, Data: im.Data}
	}
	return Result{Output: text, IsError: res.IsError, Images: imgs}, nil
}
