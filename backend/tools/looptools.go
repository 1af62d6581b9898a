package tools

import (
	"context"
	"encoding/json"
	"strings"

	"pilot/backend/customagent"
	"pilot/backend/toolname"
)

// Tools the agent loop runs itself, since they need the turn: task starts
// a helper agent (the turn's model, budget and cancellation), web_fetch
// asks the user per host and may ask the model about the page, web_search
// asks per search service and counts the session's searches. The
// registry holds their definitions, so they are offered and labelled like
// the others; Params reads their input.
const (
	TaskTool      = toolname.Task
	WebFetchTool  = toolname.WebFetch
	WebSearchTool = toolname.WebSearch
)

// TaskParams is the input of task.
type TaskParams struct {
	Description  string `json:"description" desc:"What the helper does, in 3 to 6 words (shown to the user on the card)."`
	Prompt       string `json:"prompt" desc:"The helper's whole brief: what to find or answer, where to look, and what to report. It does not see this conversation."`
	SubagentType string `json:"subagent_type,omitempty" desc:"A custom agent's name, from the list in this tool's description; leave it out for the read-only helper."`
}

// WebFetchParams is the input of web_fetch.
type WebFetchParams struct {
	URL    string `json:"url" desc:"The page to fetch: an absolute http or https URL."`
	Prompt string `json:"prompt,omitempty" desc:"A question about the page. When given, the model reads the page and you get its answer instead of the whole page."`
}

// WebSearchParams is the input of web_search.
type WebSearchParams struct {
	Query          string   `json:"query" desc:"What to search for, as you would type it into a search engine."`
	MaxResults     int      `json:"max_results,omitempty" desc:"How many results to return, 1 to 20 (default 5)."`
	AllowedDomains []string `json:"allowed_domains,omitempty" desc:"Keep the results to these sites, for example [\"go.dev\", \"pkg.go.dev\"]."`
}

func newTask(deps Deps) Tool {
	t := newTool(TaskTool, true, func(p TaskParams) string {
		if a := strings.TrimSpace(p.SubagentType); a != "" {
			return "→ Agent " + truncate(a, 40) + ": " + truncate(strings.Join(strings.Fields(p.Description), " "), 80)
		}
		return "→ Helper: " + truncate(strings.Join(strings.Fields(p.Description), " "), 80)
	}, loopOnly[TaskParams](TaskTool))
	if deps.Agents != nil {
		t.more = func() string { return customagent.Prompt(deps.Agents().Agents) }
	}
	return t
}

func newWebFetch() Tool {
	return loopTool(WebFetchTool, func(p WebFetchParams) string { return "→ Fetching " + truncate(strings.TrimSpace(p.URL), 120) })
}

func newWebSearch() Tool {
	return loopTool(WebSearchTool, func(p WebSearchParams) string {
		return "→ Searching the web: " + truncate(strings.Join(strings.Fields(p.Query), " "), 120)
	})
}

// loopTool is a read-only tool the loop runs itself, labelled by label.
func loopTool[P any](name string, label func(P) string) *typedTool[P] {
	return newTool(name, true, label, loopOnly[P](name))
}

// loopOnly is the Execute of a tool the loop runs: reached only when a
// caller bypasses the loop (a helper's registry never offers them).
func loopOnly[P any](name string) func(context.Context, P) (Result, error) {
	return func(context.Context, P) (Result, error) {
		return errorf("The %s tool is not available here.", name), nil
	}
}

// Params reads and checks the input of a tool against its schema; a
// mistake comes back as the Result to give the model.
func Params[P any](t Tool, input json.RawMessage) (P, *Result) {
	var zero P
	tt, ok := t.(*typedTool[P])
	if !ok {
		r := errorf("tools: %s does not take %T", t.Name(), zero)
		return zero, &r
	}
	p, err := tt.decode(input)
	if err != nil {
		r := errorf("Invalid input for %s: %v. The input schema is %s", t.Name(), err, tt.raw)
		return zero, &r
	}
	return p, nil
}
