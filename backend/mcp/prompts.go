package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pilot/backend/wire"
)

// PromptInfo is a server's prompt, offered as the slash command
// /mcp__<server>__<prompt>; its arguments are given in order.
// It is the wire's type.
type PromptInfo = wire.MCPPromptInfo

func listPrompts(ctx context.Context, server string, sess *sdk.ClientSession) ([]PromptInfo, error) {
	if !offers(sess, func(c *sdk.ServerCapabilities) bool { return c.Prompts != nil }) {
		return nil, nil
	}
	out, err := collect(sess.Prompts(ctx, nil), 0, func(p *sdk.Prompt) PromptInfo {
		pi := PromptInfo{Name: ToolName(server, p.Name), Server: server, Prompt: p.Name, Description: p.Description}
		for _, a := range p.Arguments {
			pi.Args = append(pi.Args, a.Name)
		}
		return pi
	})
	if err != nil {
		return nil, err // a partial list of prompts is not kept
	}
	return out, nil
}

// refreshPrompts lists the prompts again after notifications/prompts/list_changed.
func (s *server) refreshPrompts(ctx context.Context, sess *sdk.ClientSession) {
	relist(ctx, s, sess, listPrompts, "mcp: listing prompts after list_changed", false, func(p []PromptInfo) { s.prompts = p })
}

// Prompts lists the prompts of the servers that are ready.
func (h *Hub) Prompts() []PromptInfo {
	var out []PromptInfo
	h.eachServer(func(s *server) {
		if s.state == Ready {
			out = append(out, s.prompts...)
		}
	})
	return out
}

// GetPrompt gets a prompt by its slash-command name with the words of
// args as its arguments, in order (the last takes the rest), and returns
// its messages' text.
func (h *Hub) GetPrompt(ctx context.Context, name string, words []string) (string, error) {
	var srv *server
	var info PromptInfo
	h.eachServer(func(s *server) {
		for _, p := range s.prompts {
			if p.Name == name && s.state == Ready {
				srv, info = s, p
			}
		}
	})
	if srv == nil {
		return "", fmt.Errorf("%w: no ready server has the prompt %s", ErrNotReady, name)
	}
	args := map[string]string{}
	for i, a := range info.Args {
		switch {
		case i >= len(words):
		case i == len(info.Args)-1:
			args[a] = strings.Join(words[i:], " ")
		default:
			args[a] = words[i]
		}
	}
	srv.mu.Lock()
	sess := srv.sess
	srv.mu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, time.Duration(h.timeout.Load()))
	defer cancel()
	res, err := sess.GetPrompt(cctx, &sdk.GetPromptParams{Name: info.Prompt, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("prompt %s of %s: %v", info.Prompt, info.Server, err)
	}
	var parts []string
	for _, m := range res.Messages {
		switch c := m.Content.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				parts = append(parts, c.Resource.Text)
			}
		}
	}
	return strings.Join(parts, "\n\n"), nil
}
