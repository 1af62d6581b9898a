package store

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"pilot/backend/llm"
)

// checkDecode compares decodeBlocks with encoding/json on one input.
func checkDecode(t *testing.T, in string) {
	t.Helper()
	var fast, slow []llm.ContentBlock
	errFast := decodeBlocks(in, &fast)
	errSlow := json.Unmarshal([]byte(in), &slow)
	if (errFast == nil) != (errSlow == nil) || !reflect.DeepEqual(fast, slow) {
		t.Errorf("%s:\nfast %#v %v\nslow %#v %v", in, fast, errFast, slow, errSlow)
	}
}

// TestDecodeBlocks: the scanner reads exactly what the JSON decoder reads,
// and leaves everything else to it.
func TestDecodeBlocks(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`[{"type":"text","text":"plain words"}]`,
		`[{"type":"text","text":"héllo wörld ✓"}]`,
		`[{"type":"text","text":"a \"quoted\" \\ \u003c\n"}]`,
		`[{"type":"text","text":"one"},{"type":"text","text":"two"}]`,
		`[{"type":"text","text":"x"},{"type":"tool_use","id":"t","name":"n","input":{"a":"\"}]","b":[1,{"c":"]"}]}}]`,
		`[{"type":"tool_use","id":"t","name":"n","input":null}]`,
		`[{"type":"tool_use","id":"t","name":"n","input":[1, 2]}]`,
		`[{"type":"tool_result","tool_use_id":"t","content":"out","is_error":true}]`,
		`[{"type":"tool_result","tool_use_id":"t","content":"out","is_error":false}]`,
		`[{"type":"thinking","thinking":"hm","signature":"c2ln"},{"type":"text","text":"ok"}]`,
		`[{"type":"thinking","thinking":"The user asks","field":"reasoning_content","origin":"api.deepseek.com"},{"type":"tool_use","id":"t","name":"n","input":{}}]`,
		`[{"type":"thinking","thinking":"We need","origin":"openrouter.ai","field":"reasoning"}]`,
		`[{"type":"thinking","thinking":"hm","signature":"c2ln"},{"type":"redacted_thinking","data":"EmwK/a+b=="},{"type":"tool_use","id":"t","name":"n","input":{}}]`,
		`[{"type":"text","text":"x"}, {"type":"text","text":"y"}]`,
		`[{"type":"text","extra":1}]`,
		`[{"text":"x","type":"text"}]`,
		`[{"type":"text"}]`,
		`[]`,
		`[{"type":"text","text":"x"},]`,
		"[{\"type\":\"text\",\"text\":\"bad \xff utf8\"}]",
	} {
		checkDecode(t, in)
	}
	// Random messages as encodeBlocks writes them.
	r := rand.New(rand.NewPCG(7, 8))
	strs := []string{"", "plain", "with \"quote\"", "back\\slash", "tab\there", "<html> & co", "ünïcode ✓", "line\nbreak"}
	pick := func() string { return strs[r.IntN(len(strs))] }
	for range 2000 {
		var bs []llm.ContentBlock
		for range r.IntN(4) {
			b := llm.ContentBlock{Type: []llm.BlockType{llm.BlockText, llm.BlockThinking, llm.BlockRedactedThinking, llm.BlockToolUse, llm.BlockToolResult}[r.IntN(5)],
				Text: pick(), Thinking: pick(), Signature: pick(), Field: pick(), Origin: pick(), Data: pick(), ID: pick(), Name: pick(), ToolUseID: pick(), Content: pick(), IsError: r.IntN(2) == 0}
			if r.IntN(2) == 0 {
				in, _ := json.Marshal(map[string]any{"path": pick(), "n": r.IntN(9), "list": []string{pick()}})
				b.Input = in
			}
			bs = append(bs, b)
		}
		in, err := encodeBlocks(bs)
		if err != nil {
			t.Fatal(err)
		}
		checkDecode(t, in)
	}
}

// TestReasoningFieldSurvivesReopen: the thinking of an OpenAI-compatible
// server keeps the field it came in and its host through the database, as
// the OpenAI client needs them to send it back (DeepSeek's thinking mode
// answers 400 without it after a tool call), and the fast scanner reads it.
func TestReasoningFieldSurvivesReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := newStore(t)
	_, x := newSession(t, s, "/proj")
	blocks := []llm.ContentBlock{
		{Type: llm.BlockThinking, Thinking: "The user asks about the weather in San Francisco.", Field: llm.FieldReasoningContent, Origin: "api.deepseek.com"},
		toolUse("call_00_IhCAliIHtM9gKpgfqbBV9873", "weather", `{"location":"San Francisco"}`),
	}
	must[Message](t)(s.Messages.Append(ctx, x.ID, user("Weather in SF?"), llm.Usage{}))
	stream := must[*Stream](t)(s.Messages.BeginStream(ctx, x.ID))
	must[Message](t)(stream.Finish(blocks, llm.Usage{}))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { again.Close() })
	ms := must[[]Message](t)(again.Messages.List(ctx, x.ID))
	if len(ms) != 2 || !reflect.DeepEqual(ms[1].Content, blocks) {
		t.Fatalf("read back %+v", ms)
	}
	stored, err := encodeBlocks(blocks)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := scanBlocks(stored); !ok {
		t.Errorf("the fast scanner gave up on %s", stored)
	}
}

// TestRedactedThinkingSurvivesReopen: a redacted_thinking block is read
// back from the database file exactly as written, in its place, after the
// store is closed and opened again.
func TestRedactedThinkingSurvivesReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := newStore(t)
	_, x := newSession(t, s, "/proj")
	blocks := []llm.ContentBlock{
		{Type: llm.BlockThinking, Thinking: "Read go.mod first.", Signature: "EqQBCgIYAhIM"},
		{Type: llm.BlockRedactedThinking, Data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfW+8=="},
		toolUse("toolu_1", "read_file", `{"path":"go.mod"}`),
	}
	must[Message](t)(s.Messages.Append(ctx, x.ID, user("Which Go version?"), llm.Usage{}))
	stream := must[*Stream](t)(s.Messages.BeginStream(ctx, x.ID))
	must[Message](t)(stream.Finish(blocks, llm.Usage{}))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { again.Close() })
	ms := must[[]Message](t)(again.Messages.List(ctx, x.ID))
	if len(ms) != 2 || !reflect.DeepEqual(ms[1].Content, blocks) {
		t.Fatalf("read back %+v", ms)
	}
}
