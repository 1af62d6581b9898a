package cli

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// lineFields makes every string in a value visible, in struct fields,
// elements, map keys and values, through pointers and interfaces; bytes,
// times, unexported fields and the value given are left as they are.
func TestLineFields(t *testing.T) {
	t.Parallel()
	type inner struct{ Text string }
	type name string
	type value struct {
		Plain   string
		Named   name
		List    []string
		Array   [1]string
		Map     map[string]inner
		Ptr     *inner
		Any     any
		Raw     json.RawMessage
		When    time.Time
		hidden  string
		Nothing []string
	}
	when := time.Unix(5, 0)
	in := value{
		Plain: "a\x1bb", Named: "c\rd", List: []string{"\u202e"}, Array: [1]string{"\x07"},
		Map: map[string]inner{"k\x1b": {"v\r"}}, Ptr: &inner{"p\u200b"}, Any: inner{"i\x1b"},
		Raw: json.RawMessage(`"\u001b"`), When: when, hidden: "\x1b",
	}
	before := in
	got := lineFields(in)
	want := value{
		Plain: `a\eb`, Named: `c\rd`, List: []string{`\u202e`}, Array: [1]string{`\x07`},
		Map: map[string]inner{`k\e`: {`v\r`}}, Ptr: &inner{`p\u200b`}, Any: inner{`i\e`},
		Raw: json.RawMessage(`"\u001b"`), When: when, hidden: "\x1b",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lineFields = %+v\nwant %+v", got, want)
	}
	if !reflect.DeepEqual(in, before) || in.Ptr.Text != "p\u200b" || in.List[0] != "\u202e" {
		t.Errorf("the value given changed: %+v", in)
	}
}
