package store

import (
	"encoding/json"
	"reflect"
	"testing"

	"pilot/backend/llm"
)

// TestDecodeBlocks: the fast path for a text-only message reads exactly
// what the JSON decoder reads, and leaves everything else to it.
func TestDecodeBlocks(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`[{"type":"text","text":"plain words"}]`,
		`[{"type":"text","text":"héllo wörld ✓"}]`,
		`[{"type":"text","text":"a \"quoted\" \\ \u003c\n"}]`,
		`[{"type":"text","text":"one"},{"type":"text","text":"two"}]`,
		`[{"type":"text","text":"x"},{"type":"tool_use","id":"t","name":"n","input":{"a":"\"}]"}}]`,
		`[{"type":"text","text":"x"}, {"type":"text","text":"y"}]`,
		`[{"type":"text"}]`,
		`[]`,
		"[{\"type\":\"text\",\"text\":\"bad \xff utf8\"}]",
	} {
		var fast, slow []llm.ContentBlock
		errFast := decodeBlocks([]byte(in), &fast)
		errSlow := json.Unmarshal([]byte(in), &slow)
		if (errFast == nil) != (errSlow == nil) || !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s:\nfast %#v %v\nslow %#v %v", in, fast, errFast, slow, errSlow)
		}
	}
}
