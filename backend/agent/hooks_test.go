package agent

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pilot/backend/hooks"
	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/settingsjson"
	"pilot/backend/wire"
)

// hookSet is a Set of one user file with one command hook.
func hookSet(t testing.TB, event, matcher, command string) *hooks.Set {
	t.Helper()
	f := settingsjson.File{Path: filepath.Join(t.TempDir(), "settings.json"), Scope: settingsjson.ScopeUser,
		Hooks: settingsjson.Hooks{event: {{Matcher: matcher, Hooks: []settingsjson.Hook{{Type: "command", Command: command}}}}}}
	return hooks.New([]settingsjson.File{f}, hooks.Options{Env: []string{"PATH=" + os.Getenv("PATH")}})
}

// A PreToolUse hook runs again on exactly what lands when the user
// approved only some hunks or edited the change: as a Write of the final
// content, before the write; a block then writes nothing.
func TestHookPreToolUseAgainOnWhatLands(t *testing.T) {
	t.Parallel()
	old := "one\n" + strings.Repeat("keep\n", 12) + "two\n"
	log := filepath.Join(t.TempDir(), "pre.jsonl")
	guard := `in=$(cat); printf '%s\n' "$in" >> ` + log + `; case "$in" in *FORBIDDEN*) echo "FORBIDDEN may not be written." >&2; exit 2;; esac`
	for _, c := range []struct {
		name     string
		decide   func(v wire.ChangeView) wire.ChangeDecision
		want     string // the file afterwards
		runs     int    // PreToolUse runs
		contents []string
	}{
		{"some hunks", func(v wire.ChangeView) wire.ChangeDecision {
			return wire.ChangeDecision{Files: []wire.FileDecision{{Path: v.Files[0].Path, Hunks: []bool{true, false}}}}
		}, "ONE\n" + strings.Repeat("keep\n", 12) + "two\n", 2, []string{"", "ONE\n" + strings.Repeat("keep\n", 12) + "two\n"}},
		{"edited to something the hook blocks", func(v wire.ChangeView) wire.ChangeDecision {
			text := "FORBIDDEN\n"
			return wire.ChangeDecision{Files: []wire.FileDecision{{Path: v.Files[0].Path, EditedText: &text}}}
		}, old, 2, []string{"", "FORBIDDEN\n"}},
		{"all hunks: no second run", func(v wire.ChangeView) wire.ChangeDecision { return allHunks(v, true) },
			"ONE\n" + strings.Repeat("keep\n", 12) + "TWO\n", 1, []string{""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := log + "." + strings.ReplaceAll(c.name, " ", "-")
			h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("r", "read_file", `{"path":"f.txt"}`)}},
				{ToolCalls: []fakellm.ToolCall{toolCall("w", "write_file", `{"path":"f.txt","content":"ONE\n`+strings.Repeat(`keep\n`, 12)+`TWO\n"}`)}},
				{Text: "ok"},
			}}, setup{files: map[string]string{"f.txt": old}, hooks: hookSet(t, "PreToolUse", "Write|Edit", strings.ReplaceAll(guard, "pre.jsonl", filepath.Base(log)))})
			h.approveWith(func(a wire.Approval) {
				v, err := h.m.Approvals().Change(a.ID)
				if err != nil {
					t.Error(err)
					return
				}
				h.m.Approvals().DecideChange(a.ID, c.decide(v))
			})
			if r := h.turn("write"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			if got := h.read("f.txt"); got != c.want {
				t.Errorf("f.txt = %q, want %q", got, c.want)
			}
			b, _ := os.ReadFile(log)
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if len(lines) != c.runs {
				t.Fatalf("%d PreToolUse runs, want %d:\n%s", len(lines), c.runs, b)
			}
			for i, want := range c.contents[1:] {
				var in struct {
					ToolName  string `json:"tool_name"`
					ToolInput struct {
						FilePath string `json:"file_path"`
						Content  string `json:"content"`
					} `json:"tool_input"`
				}
				if err := json.Unmarshal([]byte(lines[i+1]), &in); err != nil || in.ToolName != "Write" || in.ToolInput.Content != want || !filepath.IsAbs(in.ToolInput.FilePath) {
					t.Errorf("second run read %s", lines[i+1])
				}
			}
			res := h.results(2)
			blocked := strings.Contains(res[0].Content, "FORBIDDEN may not be written.")
			if blocked != (c.want == old) {
				t.Errorf("result %q", res[0].Content)
			}
		})
	}
}

// A hook's allow never beats a deny rule: the call is refused by the rule.
func TestHookAllowNeverBeatsDenyRule(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("r", "read_file", `{"path":"secret.txt"}`)}},
		{Text: "ok"},
	}}, setup{files: map[string]string{"secret.txt": "s3cret"}, hooks: hookSet(t, "PreToolUse", "", `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`)})
	addRule(t, h, "deny", "read_file", "secret.txt")
	if r := h.turn("read"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if res := h.results(1); !res[0].IsError || strings.Contains(res[0].Content, "s3cret") {
		t.Errorf("result %+v", res[0])
	}
}

// BenchmarkPreToolUseHook measures what one no-op PreToolUse hook adds to
// a tool call: turns of one list_files call each, with no hook, with
// `true` as the hook, and (apart, when python3 is there) with a Python
// hook that does nothing, whose own start-up is most of its cost. The
// variants take turns, 50 each per iteration, so the machine's load falls
// on all alike. It reports the median turn of each, the hooks' overhead
// (difference of medians), and the median of the hook's own run as the
// card shows it (spawn to exit).
func BenchmarkPreToolUseHook(b *testing.B) {
	type variant struct {
		name, command string
		h             *harness
		turns, runs   []time.Duration
	}
	vs := []*variant{{name: "none"}, {name: "noop", command: "true"}}
	if _, err := exec.LookPath("python3"); err == nil {
		vs = append(vs, &variant{name: "python", command: "python3 -c pass"})
	}
	for _, v := range vs {
		var hs *hooks.Set
		if v.command != "" {
			hs = hookSet(b, "PreToolUse", "", v.command)
		}
		v.h = newHarness(b, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
			{Repeat: true, Match: func(r fakellm.Request) bool { return len(r.ToolResults) == 0 }, ToolCalls: []fakellm.ToolCall{{Name: "list_files", Input: []byte(`{}`)}}},
			{Repeat: true, Text: "done"},
		}}, setup{opt: Options{LoopGuard: 1 << 20}, hooks: hs})
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for range 50 {
			for _, v := range vs {
				s, err := v.h.st.Sessions.Create(ctx, storeSession(v.h))
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				if err := v.h.m.Send(ctx, s.ID, "list the folder", nil); err != nil {
					b.Fatal(err)
				}
				if r := v.h.wait(); r != ReasonEndTurn {
					b.Fatalf("reason %s", r)
				}
				v.turns = append(v.turns, time.Since(start))
			}
		}
	}
	b.StopTimer()
	med := func(ds []time.Duration) time.Duration {
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	none := med(vs[0].turns)
	for _, v := range vs {
		b.ReportMetric(ms(med(v.turns)), "ms-median-"+v.name)
		if v.command == "" {
			continue
		}
		b.ReportMetric(ms(med(v.turns)-none), "ms-overhead-"+v.name)
		for _, e := range v.h.rec.events(wire.AgentTool) {
			for _, run := range e.(wire.ToolPayload).Call.Hooks {
				v.runs = append(v.runs, time.Duration(run.Ms)*time.Millisecond)
			}
		}
		if len(v.runs) > 0 {
			b.ReportMetric(ms(med(v.runs)), "ms-hook-run-"+v.name)
		}
	}
}

// waitFile waits until the file at p holds want (a hook run in the
// background wrote it).
func waitFile(t *testing.T, p, want string) string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), want) {
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s = %q, want %q in it", p, b, want)
		}
		time.Sleep(10 * time.Millisecond) // polling a file another process writes; the condition decides
	}
}

// Notification hooks run when Pilot waits for the user's decision.
func TestHookNotificationOnApproval(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "note.json")
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("w", "write_file", `{"path":"new.txt","content":"x"}`)}},
		{Text: "ok"},
	}}, setup{mode: "ask", hooks: hookSet(t, "Notification", "", "cat > "+log+".tmp && mv "+log+".tmp "+log)}) // renamed when whole, so never read half written
	h.approveAll()
	if r := h.turn("write"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	got := waitFile(t, log, `"notification_type":"permission_prompt"`)
	if !strings.Contains(got, `"message":"Pilot needs your permission to use Write"`) {
		t.Errorf("the Notification hook read %s", got)
	}
}

// A helper's calls pass its PreToolUse hooks, and a SubagentStop hook
// that blocks makes the helper go on once.
func TestHookHelperCallsAndSubagentStop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pre, stop := filepath.Join(dir, "pre.jsonl"), filepath.Join(dir, "stop.jsonl")
	f := settingsjson.File{Path: filepath.Join(dir, "settings.json"), Scope: settingsjson.ScopeUser, Hooks: settingsjson.Hooks{
		"PreToolUse":   {{Matcher: "Read", Hooks: []settingsjson.Hook{{Type: "command", Command: "cat >> " + pre + "; echo >> " + pre + `; echo "Read is off limits." >&2; exit 2`}}}},
		"SubagentStop": {{Hooks: []settingsjson.Hook{{Type: "command", Command: "cat >> " + stop + "; echo >> " + stop + `; echo '{"decision":"block","reason":"Check the tests folder too."}'`}}}},
	}}
	hs := hooks.New([]settingsjson.File{f}, hooks.Options{Env: []string{"PATH=" + os.Getenv("PATH")}})
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{Match: func(r fakellm.Request) bool {
			return isHelper(r) && len(r.ToolResults) == 0 && !strings.Contains(r.LastUserText, "tests folder")
		},
			ToolCalls: []fakellm.ToolCall{toolCall("hr", "read_file", `{"path":"a.txt"}`)}},
		{Repeat: true, Match: func(r fakellm.Request) bool { return isHelper(r) && strings.Contains(r.LastUserText, "tests folder") }, Text: "Tests checked."},
		{Repeat: true, Match: func(r fakellm.Request) bool { return isHelper(r) }, Text: "a.txt could not be read."},
		{Match: func(r fakellm.Request) bool { return !isHelper(r) && len(r.ToolResults) == 0 },
			ToolCalls: []fakellm.ToolCall{toolCall("t1", "task", `{"description":"look","prompt":"read a.txt"}`)}},
		{Repeat: true, Text: "done"},
	}}, setup{files: map[string]string{"a.txt": "alpha"}, hooks: hs})
	if r := h.turn("survey"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if b, _ := os.ReadFile(pre); !strings.Contains(string(b), `"tool_name":"Read"`) {
		t.Errorf("the helper's read passed no PreToolUse hook: %s", b)
	}
	b, _ := os.ReadFile(stop)
	if !strings.Contains(string(b), `"stop_hook_active":false`) || !strings.Contains(string(b), `"stop_hook_active":true`) {
		t.Errorf("SubagentStop read %s", b)
	}
	res := h.results(len(h.srv.Requests()) - 1)
	if len(res) != 1 || res[0].Content != "Tests checked." {
		t.Errorf("task result %+v", res)
	}
}

// A hook's continue: false stops the turn after the calls of the answer,
// with its reason shown; calls that run at once may each say so.
func TestHookContinueFalseStopsTurn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("a", "list_files", `{}`), toolCall("b", "glob", `{"pattern":"*"}`)}},
		{Repeat: true, Text: "went on"},
	}}, setup{hooks: hookSet(t, "PreToolUse", "", `echo '{"continue":false,"stopReason":"Stop here: the build is red."}'`)})
	if r := h.turn("look"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if n := len(h.srv.Requests()); n != 1 {
		t.Errorf("%d model calls, want 1", n)
	}
	notes := strings.Join(h.rec.notices(wire.NoticeHook), "\n")
	if !strings.Contains(notes, "Stop here: the build is red.") {
		t.Errorf("notices %q", notes)
	}
}

// PreCompact hooks run before a compaction the user asked for, with the
// trigger manual.
func TestHookPreCompact(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "compact.json")
	answer := func(n string) string { return n + strings.Repeat(" long answer", 2300) }
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{Text: "SUMMARY", Repeat: true, Match: isSummary},
		{Text: answer("One"), Match: func(r fakellm.Request) bool { return strings.HasSuffix(r.LastUserText, "ask alpha") }},
		{Text: answer("Two"), Match: func(r fakellm.Request) bool { return strings.HasSuffix(r.LastUserText, "ask bravo") }},
		{Text: answer("Three"), Match: func(r fakellm.Request) bool { return strings.HasSuffix(r.LastUserText, "ask charlie") }},
	}}, setup{opt: Options{ContextWindow: 28000}, hooks: hookSet(t, "PreCompact", "manual", "cat > "+log)})
	for _, m := range []string{"ask alpha", "ask bravo", "ask charlie"} {
		if r := h.turn(m); r != ReasonEndTurn {
			t.Fatalf("%s: %s", m, r)
		}
	}
	// After a restart, /compact is the first thing the session does: its
	// hooks are read for it as for a turn (they were not, and the hook
	// silently did not run).
	h.restart()
	if err := h.m.CompactNow(context.Background(), h.sess.ID); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(log); !strings.Contains(string(b), `"hook_event_name":"PreCompact"`) || !strings.Contains(string(b), `"trigger":"manual"`) {
		t.Errorf("the PreCompact hook read %q", b)
	}
}
