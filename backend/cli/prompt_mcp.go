package cli

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"pilot/backend/commands"
	"pilot/backend/mcp"
	"pilot/backend/version"
)

type closerFunc func()

func (f closerFunc) Close() error { f(); return nil }

// startMCP starts the project's MCP servers for a headless run and waits
// until none is starting (at most their start timeout), so the first
// model call sees their tools. What keeps a server off is said on stderr:
// an untrusted .mcp.json, a broken file, a server that failed.
func startMCP(ctx context.Context, home, project string, log *slog.Logger, tio IO) *mcp.Hub {
	hub, err := mcp.Open(project, mcp.HomeOptions(home, version.Get().Version, log))
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: MCP servers not started: %v\n", err)
		return hub
	}
	wctx, cancel := context.WithTimeout(ctx, mcp.DefaultStartTimeout+time.Second)
	defer cancel()
	hub.WaitReady(wctx)
	if need, _ := hub.NeedsTrust(); need {
		fmt.Fprintf(tio.Stderr, "pilot: the servers of %s were not started: it is not trusted yet; review and trust it with `pilot mcp trust --project %s`\n", mcp.ProjectPath(project), project)
	}
	for _, s := range hub.Status() {
		if s.State == mcp.Failed {
			fmt.Fprintf(tio.Stderr, "pilot: MCP server %s failed: %s (pilot mcp get %s shows its stderr)\n", s.Name, s.Error, s.Name)
		}
	}
	return hub
}

// expand turns "/name args" into the custom command's (or MCP prompt's)
// text; other text is sent as it is.
func (h *headless) expand(ctx context.Context, text string) (string, error) {
	var src commands.PromptSource
	if h.hub != nil {
		src = h.hub
	}
	out, _, err := commands.ExpandPrompt(ctx, h.home, h.project, text, src)
	return out, err
}
