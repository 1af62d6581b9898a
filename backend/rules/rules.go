// Package rules is the one way permission rules enter and leave the
// store: a rule is checked by permission.Validate before it is stored,
// wherever it comes from (Settings, "always allow", `pilot rules add`),
// and a stored rule that cannot match is listed with the sentence that
// says why, never skipped in silence.
//
// A rule's tool must be known: one of the built-in tools (tools.Names),
// edits, or mcp__<server>[__<tool>] of an MCP server configured for the
// user or the project.
package rules

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"pilot/backend/mcp"
	"pilot/backend/permission"
	"pilot/backend/store"
	"pilot/backend/tools"
)

// Invalid is the error of a rule refused before it was stored; its text
// is one sentence that names the problem.
type Invalid struct {
	Rule     permission.Rule
	Sentence string
}

func (e *Invalid) Error() string { return e.Sentence }

// Listed is a stored rule; Invalid says why it can never match ("" when
// it is valid).
type Listed struct {
	store.Rule
	Invalid string `json:"invalid"`
}

// Known reports which rule tools exist for the project at dir (PILOT_HOME
// is home): the built-in tools, edits, and the MCP servers of the user's
// and the project's configuration, trusted or not. When a configuration
// file cannot be read, every mcp__ tool counts as known: a broken file
// must not make the rules of its servers look invalid (Settings' MCP
// section reports the file).
func Known(home, dir string) func(string) bool {
	set, err := mcp.Load(home, dir)
	var servers []string
	for _, e := range set.Entries {
		servers = append(servers, e.Name)
	}
	known := permission.Known(tools.Names(), servers)
	if err == nil {
		return known
	}
	return func(tool string) bool { return known(tool) || strings.HasPrefix(tool, permission.MCPPrefix) }
}

// Check returns the sentence that says why r cannot be used, or "".
func Check(r permission.Rule, known func(string) bool) string {
	if err := permission.Validate(r, known); err != nil {
		return Sentence(err)
	}
	return ""
}

// Add validates r and stores it for the project. A rule that fails
// validation is not stored and comes back as an *Invalid error.
func Add(ctx context.Context, st *store.Store, projectID int64, r permission.Rule, known func(string) bool) (store.Rule, error) {
	r.Tool = strings.TrimSpace(r.Tool)
	if s := Check(r, known); s != "" {
		return store.Rule{}, &Invalid{Rule: r, Sentence: s}
	}
	if r.Effect == permission.Ask {
		return store.Rule{}, &Invalid{Rule: r, Sentence: "Pilot stores allow and deny rules; an ask rule is read from a settings file's permissions.ask list: write it there."}
	}
	return st.Rules.Add(ctx, store.Rule{ProjectID: projectID, Tool: r.Tool, Pattern: r.Pattern, Effect: store.Effect(r.Effect)})
}

// List returns the project's rules, oldest first, each checked.
func List(ctx context.Context, st *store.Store, projectID int64, known func(string) bool) ([]Listed, error) {
	rs, err := st.Rules.List(ctx, projectID)
	if err != nil {
		return nil, err
	}
	out := make([]Listed, len(rs))
	for i, r := range rs {
		out[i] = Listed{Rule: r, Invalid: Check(Of(r), known)}
	}
	return out, nil
}

// Remove deletes the project's rule id and returns it; a rule of another
// project is not touched, and both it and an unknown id are reported as
// not found.
func Remove(ctx context.Context, st *store.Store, projectID, id int64) (store.Rule, error) {
	rs, err := st.Rules.List(ctx, projectID)
	if err != nil {
		return store.Rule{}, err
	}
	for _, r := range rs {
		if r.ID == id {
			return r, st.Rules.Delete(ctx, id)
		}
	}
	return store.Rule{}, fmt.Errorf("this project has no rule %d: %w", id, store.ErrNotFound)
}

// Of is the permission rule a stored rule holds.
func Of(r store.Rule) permission.Rule {
	return permission.Rule{Tool: r.Tool, Pattern: r.Pattern, Effect: permission.Effect(r.Effect)}
}

// Sentence makes err's text a sentence: a capital first letter and a
// closing full stop.
func Sentence(err error) string {
	s := strings.TrimSpace(err.Error())
	if s == "" {
		return "The rule is not valid."
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.ContainsAny(s[len(s)-1:], ".?!") {
		s += "."
	}
	return s
}
