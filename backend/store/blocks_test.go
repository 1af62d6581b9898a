package store

import (
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
			b := llm.ContentBlock{Type: []llm.BlockType{llm.BlockText, llm.BlockThinking, llm.BlockToolUse, llm.BlockToolResult}[r.IntN(4)],
				Text: pick(), Thinking: pick(), Signature: pick(), ID: pick(), Name: pick(), ToolUseID: pick(), Content: pick(), IsError: r.IntN(2) == 0}
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
