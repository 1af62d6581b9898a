package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"pilot/backend/gate"
	"pilot/backend/llm"
	"pilot/backend/mcp"
	"pilot/backend/permission"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/webfetch"
	"pilot/backend/wire"
)

// fetchResultChars cuts the page sent to the model without a prompt.
const fetchResultChars = 100_000

const fetchSystem = "You answer a question about a web page the user's coding agent fetched. Answer from the page only, concisely, quoting the exact code, commands, versions or wording that matter. Say so when the page does not answer it."

// fetchKind: a web_fetch call. The URL is parsed (no lookup), the gate
// judges the host (rules, mode, the session's earlier yes, or the user),
// and only after a yes is the host resolved and connected to. A private,
// loopback or link-local address is opened only for a host a project rule
// names exactly. The page (stored for search) or the model's answer about
// it is the result.
var fetchKind = kind{question: fetchQuestion, effect: fetch, serial: true}

func fetchQuestion(c *call) (question, bool) {
	t := c.t
	p, ok := inputOf[tools.WebFetchParams](c)
	if !ok {
		return question{}, false
	}
	u, err := webfetch.Parse(p.URL)
	if err != nil {
		c.fail("Not fetched: "+err.Error()+".", false)
		return question{}, false
	}
	host := strings.ToLower(u.Hostname())
	c.host = host
	return question{call: gate.Call{Tool: tools.WebFetchTool, ReadOnly: true, Host: host, HostApproved: t.hostApproved(c.ctx, host)},
		card:     wire.Approval{Command: "Fetch " + u.String(), Host: host},
		rejected: fmt.Sprintf("The user did not allow fetching from %s; nothing was fetched. Do not fetch from that host again unless the user asks.", host),
		check: func(d gate.Decision) (outcome, bool) {
			allow := t.l.m.opt.WebFetch.AllowPrivate
			c.private = d.Private || allow != nil && allow(host)
			if webfetch.PrivateName(host) && !c.private {
				return outcome{text: privateRefusal(host, ""), isError: true, status: wire.ToolRejected, approval: store.ApprovalRejected, refusedBy: store.RefusedRule}, false
			}
			return outcome{}, true
		}}, true
}

// fetch fetches the allowed page and tells the model about it.
func fetch(c *call) (tools.Result, error) {
	t, r, ctx, host := c.t, c.r, c.ctx, c.host
	l := t.l
	if c.grant.asked {
		l.fetched.add(host)
		c.running(ctx)
	}
	p, _ := tools.Params[tools.WebFetchParams](r.tool, r.use.Input) // read by the question
	u, _ := webfetch.Parse(p.URL)
	opt := l.m.opt.WebFetch
	private := c.private
	opt.AllowPrivate = func(h string) bool { return private && strings.EqualFold(h, host) }
	page, err := webfetch.Fetch(ctx, u, opt)
	switch {
	case err != nil && ctx.Err() != nil:
		return tools.Result{}, err
	case errors.Is(err, webfetch.ErrPrivate):
		c.fail(privateRefusal(host, err.Error()), true)
		return tools.Result{}, nil
	case err != nil:
		c.fail(fmt.Sprintf("Could not fetch %s: %v.", u, err), true)
		return tools.Result{}, nil
	case page.RedirectTo != "":
		c.tell(outcome{text: fmt.Sprintf("%s redirects to %s, on another host; the redirect was not followed. Call web_fetch with that URL to read it (the user may be asked to allow that host).", u, page.RedirectTo), status: wire.ToolDone, approval: c.grant.state})
		return tools.Result{}, nil
	}
	if _, err := l.m.st.WebPages.Add(context.WithoutCancel(ctx), store.WebPage{SessionID: l.id, ToolCallID: r.rec.ID, MessageID: r.msg,
		URL: page.URL, Title: page.Title, Markdown: page.Markdown}); err != nil {
		l.m.log.Warn("saving a fetched page", "session", l.id, "err", err)
	}
	text, isErr := t.pageResult(ctx, page, p.Prompt)
	if ctx.Err() != nil {
		c.tell(outcome{text: cancelled(true).text, isError: true, status: wire.ToolCancelled, approval: c.grant.state, feedback: c.grant.feedback})
		return tools.Result{}, nil
	}
	return tools.Result{Output: text, IsError: isErr}, nil
}

// privateRefusal tells the model that host is (or led to) an address
// inside the user's network, and which rule would open it.
func privateRefusal(host, detail string) string {
	what := "is a private, loopback or link-local address or one of this machine's own"
	if detail != "" {
		what = "led to a private, loopback or link-local address or one of this machine's own (" + detail + ")"
	}
	return fmt.Sprintf("Not fetched: %s %s. Pilot opens those only for a host that a project rule names exactly: the user can add the rule `allow web_fetch %q` in Settings → Permission rules (or `pilot rules add`); neither `allow web_fetch *` nor a one-time yes opens it.", host, what, host)
}

// pageResult is what the model is sent about a page: the page, or the
// model's answer to prompt from it.
func (t *turn) pageResult(ctx context.Context, page webfetch.Page, prompt string) (string, bool) {
	var head strings.Builder
	if page.Title != "" {
		fmt.Fprintf(&head, "# %s\n", page.Title)
	}
	fmt.Fprintf(&head, "URL: %s (%s, %s", page.URL, page.ContentType, sizeText(page.Bytes))
	if page.Cut {
		head.WriteString(", cut: the page is longer")
	}
	head.WriteString(")\n")
	if page.Status >= 400 {
		fmt.Fprintf(&head, "The server answered %d %s.\n", page.Status, http.StatusText(page.Status))
	}
	isErr := page.Status >= 400
	body := page.Markdown
	if strings.TrimSpace(body) == "" {
		return head.String() + "\n(The page has no readable text.)", isErr
	}
	if strings.TrimSpace(prompt) == "" || isErr {
		if len(body) > fetchResultChars {
			body = cutUTF8(body, fetchResultChars) + fmt.Sprintf("\n\n[... cut: the page is %d characters; call web_fetch with a prompt to ask about the rest]", len(page.Markdown))
		}
		return head.String() + "\n" + body, isErr
	}
	limit := max(20_000, t.window*2) // about half the model's window
	if len(body) > limit {
		body = cutUTF8(body, limit) + "\n[... cut]"
	}
	answer, usage, err := t.p.Complete(ctx, llm.Request{Model: t.model, System: fetchSystem, MaxTokens: t.l.m.opt.MaxTokens,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(
			fmt.Sprintf("<page url=%q>\n%s\n</page>\n\n%s", page.URL, body, prompt))}}}})
	t.spend(context.WithoutCancel(ctx), usage, false)
	if err != nil {
		return head.String() + "\nThe page was fetched, but asking the model about it failed: " + humanError(err) + ". Call web_fetch without a prompt to read the page itself.", true
	}
	return head.String() + "\nAnswer to \"" + strings.TrimSpace(prompt) + "\" from the page:\n\n" + strings.TrimSpace(answer), false
}

// sizeText is a byte count as people read it.
func sizeText(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// cutUTF8 cuts s to at most n bytes at a character boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

// hostApproved reports whether the user allowed web_fetch on host in
// this session: remembered, or (after a restart) a call of the session's
// stored history the user approved on this machine. A call that came with
// an imported session is history, never a grant.
func (t *turn) hostApproved(ctx context.Context, host string) bool {
	l := t.l
	if l.fetched.has(host) {
		return true
	}
	calls, err := l.m.st.ToolCalls.ApprovedHere(context.WithoutCancel(ctx), l.id, tools.WebFetchTool)
	if err != nil {
		l.m.log.Warn("reading the session's web fetches", "session", l.id, "err", err)
		return false
	}
	for _, c := range calls {
		var in tools.WebFetchParams
		if json.Unmarshal(c.Input, &in) != nil {
			continue
		}
		if u, err := webfetch.Parse(in.URL); err == nil && strings.EqualFold(u.Hostname(), host) {
			l.fetched.add(host)
			return true
		}
	}
	return false
}

// mcpKind: a call of an MCP server's tool, made once the gate (or the
// user) lets it. A server that fails, times out or answers isError gives
// the model an error result; the turn goes on.
var mcpKind = kind{proposes: true, failed: "The MCP call failed: ",
	question: func(c *call) (question, bool) {
		m := c.proposal.MCP
		return question{call: gate.Call{Tool: c.r.use.Name, Server: m.Server, MCPTool: m.Tool}, card: wire.Approval{
			Command: fmt.Sprintf("MCP %s: %s %s", m.Server, m.Tool, m.Arguments),
			Server:  m.Server, McpTool: m.Tool, Arguments: string(m.Arguments),
		}, rejected: "The user rejected this MCP tool call; it was not made."}, true
	},
	effect: func(c *call) (tools.Result, error) {
		c.running(c.ctx)
		f := &forms{c: c}
		defer f.close()
		res, err := c.t.l.registry.Apply(mcp.WithAsker(c.ctx, f.ask), c.proposal, tools.ApplyOptions{})
		c.r.view.NeedsSignIn = res.SignIn // the card offers the sign-in, then the retry
		return res, err
	}}

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
