package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/paths"
	"pilot/backend/service"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// sessionsDB makes a real database under a PILOT_HOME with one project
// holding a session, and the service of that home the commands run on.
func sessionsDB(t *testing.T) (st *store.Store, svc *service.Service, dir string, sessionID int64) {
	t.Helper()
	ctx := context.Background()
	home := t.TempDir()
	st, err := store.Open(ctx, paths.DB(home))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc, err = service.Open(ctx, service.Options{Home: home, Log: slog.New(slog.DiscardHandler), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	dir = t.TempDir()
	p, err := st.Projects.Touch(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	x, err := st.Sessions.Create(ctx, store.NewSession{ProjectID: p.ID, Title: "Fix the lexer", Provider: "anthropic", Model: "claude-test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []llm.Message{
		{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock("Why does the lexer drop quokka tokens?")}},
		{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
			llm.TextBlock("Let me read it."),
			{Type: llm.BlockToolUse, ID: "tu1", Name: "read_file", Input: json.RawMessage(`{"path":"lexer.go"}`)},
		}},
		{Role: llm.RoleUser, Content: []llm.ContentBlock{{Type: llm.BlockToolResult, ToolUseID: "tu1", Content: "package lexer"}}},
	} {
		if _, err := st.Messages.Append(ctx, x.ID, m, llm.Usage{}); err != nil {
			t.Fatal(err)
		}
	}
	return st, svc, dir, x.ID
}

func TestSessionsCommand(t *testing.T) {
	t.Parallel()
	_, svc, dir, id := sessionsDB(t)
	sid := func(s string) string { return strings.ReplaceAll(s, "ID", jsonInt(id)) }
	never := t.TempDir()
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string // substrings
		stderr     string
		jsonFields []string // every stdout line is a JSON object with these keys
	}{
		{name: "list", args: []string{"list", "--project", dir}, stdout: []string{"ID", "WAITING", "TITLE", "Fix the lexer", "claude-test"}},
		{name: "list json, flag after", args: []string{"list", "--json", "--project=" + dir}, stdout: []string{`"title":"Fix the lexer"`}, jsonFields: []string{"id", "title", "usage"}},
		{name: "list never opened", args: []string{"list", "--project", never}, stdout: []string{"has not been opened in Pilot yet"}},
		{name: "list never opened json", args: []string{"list", "--project", never, "--json"}},
		{name: "show", args: []string{"show", sid("ID")}, stdout: []string{"Session", "Fix the lexer", "[0] user:", "quokka", "→ read_file", "← package lexer"}},
		{name: "show json", args: []string{"show", sid("ID"), "--json"}, stdout: []string{`"messages":[`, `"toolCalls"`}, jsonFields: []string{"session", "messages", "project"}},
		{name: "search", args: []string{"search", "quokka", "--project", dir}, stdout: []string{"Session 1 · Fix the lexer · 20", "  message 1 of 3 (message): ", "«quokka»"}},
		{name: "search words unquoted", args: []string{"search", "--project", dir, "lexer", "drop"}, stdout: []string{"«lexer» «drop»"}},
		{name: "search json", args: []string{"search", "package", "--json", "--project", dir}, stdout: []string{`"kind":"tool_output"`}, jsonFields: []string{"sessionId", "messageId", "kind", "snippet"}},
		{name: "search syntax is text", args: []string{"search", `"quo* -AND (`, "--project", dir}, stdout: []string{"No matches"}},
		{name: "search no match", args: []string{"search", "zebra", "--project", dir}, stdout: []string{`No matches for "zebra"`}},
		{name: "export md", args: []string{"export", sid("ID"), "--format", "md"}, stdout: []string{"# Fix the lexer", "## Assistant", "**Tool call** `read_file`"}},
		{name: "export json", args: []string{"export", "--format=json", sid("ID")}, stdout: []string{`"format": "pilot-session"`}},
		{name: "help", args: []string{"--help"}, stdout: []string{"pilot sessions list"}},

		{name: "no subcommand", args: nil, code: 2, stderr: "missing subcommand"},
		{name: "unknown subcommand", args: []string{"frob"}, code: 2, stderr: `unknown subcommand "frob"`},
		{name: "unknown flag", args: []string{"list", "--verbose"}, code: 2, stderr: "unknown flag --verbose"},
		{name: "flag without value", args: []string{"list", "--project"}, code: 2, stderr: "--project needs a value"},
		{name: "show without id", args: []string{"show"}, code: 2, stderr: "expected 1 argument(s), got 0"},
		{name: "show bad id", args: []string{"show", "abc"}, code: 2, stderr: `"abc" is not a session id`},
		{name: "search without query", args: []string{"search"}, code: 2, stderr: "missing QUERY"},
		{name: "export without format", args: []string{"export", sid("ID")}, code: 2, stderr: "--format must be md or json"},
		{name: "export bad format", args: []string{"export", sid("ID"), "--format", "pdf"}, code: 2, stderr: "--format must be md or json"},
		{name: "show missing session", args: []string{"show", "999"}, code: 1, stderr: "no session 999"},
		{name: "export missing session", args: []string{"export", "999", "--format", "json"}, code: 1, stderr: "no session 999"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out, errOut bytes.Buffer
			code := Sessions(context.Background(), svc, tc.args, &out, &errOut)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tc.code, errOut.String())
			}
			for _, want := range tc.stdout {
				if !strings.Contains(out.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, out.String())
				}
			}
			if tc.code == 0 && errOut.Len() != 0 {
				t.Errorf("stderr on success: %s", errOut.String())
			}
			if tc.stderr != "" {
				first, _, _ := strings.Cut(errOut.String(), "\n")
				if !strings.Contains(first, tc.stderr) {
					t.Errorf("first stderr line %q lacks %q", first, tc.stderr)
				}
			}
			if tc.jsonFields == nil {
				return
			}
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				var obj map[string]any
				if err := json.Unmarshal([]byte(line), &obj); err != nil {
					t.Fatalf("not a JSON object per line: %v\n%s", err, line)
				}
				for _, f := range tc.jsonFields {
					if _, ok := obj[f]; !ok {
						t.Errorf("JSON line lacks %q: %s", f, line)
					}
				}
			}
		})
	}
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestSessionsDefaultProject: without --project, the current directory.
func TestSessionsDefaultProject(t *testing.T) {
	_, svc, dir, _ := sessionsDB(t)
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	if code := Sessions(context.Background(), svc, []string{"list"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "Fix the lexer") {
		t.Errorf("stdout:\n%s", out.String())
	}
}

// TestSessionsShowImages: sessions show names a message's images (and a
// tool result's) by media type and hash.
func TestSessionsShowImages(t *testing.T) {
	t.Parallel()
	st, svc, _, id := sessionsDB(t)
	img := llm.ImageBlock("image/png", "ab12cd", nil)
	msg := llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock("and this?"), img}}
	if _, err := st.Messages.Append(context.Background(), id, msg, llm.Usage{}); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Sessions(context.Background(), svc, []string{"show", jsonInt(id)}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "[image image/png, sha256 ab12cd]") {
		t.Errorf("show:\n%s", out.String())
	}
}

// Hits are grouped by session, each with its title and date, and numbered
// by their position in the session rather than by global message ids.
func TestSearchGroupsHitsBySession(t *testing.T) {
	t.Parallel()
	st, svc, _, first := sessionsDB(t)
	ctx := context.Background()
	s1, _ := st.Sessions.Get(ctx, first)
	second, err := st.Sessions.Create(ctx, store.NewSession{ProjectID: s1.ProjectID, Title: "Second look", Provider: "anthropic", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.Messages.Append(ctx, second.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock("the quokka again")}}, llm.Usage{})
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := st.Messages.List(ctx, first)
	hits := []wire.SearchRecord{
		{SessionID: first, MessageID: msgs[0].ID, Kind: string(store.HitMessage), Snippet: "drop «quokka»"},
		{SessionID: second.ID, MessageID: m.ID, Kind: string(store.HitMessage), Snippet: "the «quokka» again"},
		{SessionID: first, MessageID: msgs[2].ID, Kind: string(store.HitToolOutput), Snippet: "package «lexer»"},
	}
	var out bytes.Buffer
	if err := printHits(ctx, svc, hits, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	want := "Session 1 · Fix the lexer · DATE\n" +
		"  message 1 of 3 (message): drop «quokka»\n" +
		"  message 3 of 3 (tool output): package «lexer»\n" +
		"\nSession 2 · Second look · DATE\n" +
		"  message 1 of 1 (message): the «quokka» again\n"
	date := s1.UpdatedAt.Local().Format("2006-01-02 15:04")
	got = strings.ReplaceAll(got, date, "DATE")
	if s2, _ := st.Sessions.Get(ctx, second.ID); s2.UpdatedAt.Local().Format("2006-01-02 15:04") != date {
		got = strings.ReplaceAll(got, s2.UpdatedAt.Local().Format("2006-01-02 15:04"), "DATE")
	}
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestSessionsJSONShapes: every --json output of pilot sessions decodes
// strictly into its type in backend/wire/cli.go.
func TestSessionsJSONShapes(t *testing.T) {
	t.Parallel()
	_, svc, dir, id := sessionsDB(t)
	run := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := Sessions(context.Background(), svc, args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		return out.String()
	}
	if ss := decodeLines[wire.SessionRecord](t, run("list", "--project", dir, "--json")); len(ss) != 1 || ss[0].ID != id || ss[0].CreatedAt.IsZero() {
		t.Errorf("list: %+v", ss)
	}
	if hs := decodeLines[wire.SearchRecord](t, run("search", "quokka", "--project", dir, "--json")); len(hs) != 1 || hs[0].Kind != "message" {
		t.Errorf("search: %+v", hs)
	}
	tr := decodeStrict[wire.Transcript](t, run("show", jsonInt(id), "--json"))
	if len(tr.Messages) != 3 || tr.Messages[1].Content[1].Type != "tool_use" || tr.Project.Path != dir {
		t.Errorf("show: %+v", tr)
	}
	if lv := decodeStrict[wire.Ledger](t, run("changes", jsonInt(id), "--json")); lv.SessionID != id {
		t.Errorf("changes: %+v", lv)
	}
}
