package lsp

import (
	"context"
	"encoding/json"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// handler takes what a server sends on its own: diagnostics and progress
// (notifications, handled in order on the reading goroutine; progress is
// only logged: the diagnostics of a change are awaited by their version,
// and a server still loading is bounded by the wait like any other) and the
// requests servers make of any client, answered on a goroutine of their
// own so a server that does not read its input cannot stall the reading.
type handler struct{ c *client }

func (h handler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if req.Notif {
		h.notification(req)
		return
	}
	result, rerr := h.request(req)
	go func() {
		if rerr != nil {
			_ = conn.ReplyWithError(ctx, req.ID, rerr)
			return
		}
		_ = conn.Reply(ctx, req.ID, result)
	}()
}

func (h handler) notification(req *jsonrpc2.Request) {
	c := h.c
	if req.Params == nil {
		return
	}
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p publishDiagnosticsParams
		if json.Unmarshal(*req.Params, &p) != nil {
			return
		}
		abs := uriPath(p.URI)
		if abs == "" {
			return
		}
		c.mu.Lock()
		if _, open := c.docs[abs]; open && p.Version == nil {
			c.unversioned = true
		}
		c.seq++
		c.diags[abs] = &published{version: p.Version, seq: c.seq, at: time.Now(), items: p.Diagnostics}
		c.broadcastLocked()
		c.mu.Unlock()
	case "$/progress": // gopls loading the workspace, analysing: logged
		var p progressParams
		if json.Unmarshal(*req.Params, &p) == nil && p.Value.Kind != "report" {
			c.log.Debug("language server progress", "kind", p.Value.Kind, "title", p.Value.Title, "message", p.Value.Message)
		}
	}
}

// request answers a server's request: configuration with nulls (the
// server's defaults), registrations and progress tokens with ok, and
// anything else with "method not found".
func (h handler) request(req *jsonrpc2.Request) (any, *jsonrpc2.Error) {
	switch req.Method {
	case "workspace/configuration":
		var p configurationParams
		if req.Params != nil {
			_ = json.Unmarshal(*req.Params, &p)
		}
		return make([]any, len(p.Items)), nil
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability",
		"window/showMessageRequest", "workspace/diagnostic/refresh", "workspace/semanticTokens/refresh",
		"workspace/inlayHint/refresh", "workspace/codeLens/refresh":
		return nil, nil
	case "workspace/workspaceFolders":
		return []workspaceFolder{{URI: fileURI(h.c.root), Name: h.c.root}}, nil
	case "workspace/applyEdit":
		return map[string]any{"applied": false, "failureReason": "Pilot does not take edits from language servers."}, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "Pilot does not handle " + req.Method}
}

// broadcastLocked wakes everyone waiting for a publication.
func (c *client) broadcastLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}
