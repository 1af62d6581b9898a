package frontmatter

import (
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestCut(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, front, body string }{
		{"name: a\n---\nbody\n", "name: a", "body\n"},
		{"---\nbody", "", "body"},
		{"name: a\n---", "name: a", ""},
	} {
		front, body, ok := Cut(c.in)
		if !ok || front != c.front || body != c.body {
			t.Errorf("Cut(%q) = %q, %q, %v", c.in, front, body, ok)
		}
	}
	if _, _, ok := Cut("name: a\nno closing line\n"); ok {
		t.Error("an unclosed front matter was cut")
	}
}

func TestTools(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		yaml string
		want Tools
	}{
		{"tools: Read, Grep Bash(git diff:*)", Tools{Names: []string{"Read", "Grep", "Bash(git diff:*)"}, Set: true}},
		{"tools:\n  - Read\n  - Bash(npm run test:*)", Tools{Names: []string{"Read", "Bash(npm run test:*)"}, Set: true}},
		{"tools:", Tools{}},
		{"other: 1", Tools{}},
	} {
		var v struct {
			Tools Tools `yaml:"tools"`
		}
		if err := yaml.Unmarshal([]byte(c.yaml), &v); err != nil || !reflect.DeepEqual(v.Tools, c.want) {
			t.Errorf("%q: %+v, %v; want %+v", c.yaml, v.Tools, err, c.want)
		}
	}
	var v struct {
		Tools Tools `yaml:"tools"`
	}
	if err := yaml.Unmarshal([]byte("tools: {a: b}"), &v); err == nil || !strings.Contains(err.Error(), "must be a YAML list") {
		t.Errorf("a map of tools: %v", err)
	}
}

func TestFirstOfEach(t *testing.T) {
	t.Parallel()
	type item struct{ name, path string }
	var shadowed []string
	got := FirstOfEach([]item{{"a", "1"}, {"b", "2"}, {"a", "3"}}, func(i item) (string, string) { return i.name, i.path },
		func(i item, first string) { shadowed = append(shadowed, i.path+" by "+first) })
	if !reflect.DeepEqual(got, []item{{"a", "1"}, {"b", "2"}}) || !reflect.DeepEqual(shadowed, []string{"3 by 1"}) {
		t.Errorf("kept %v, shadowed %v", got, shadowed)
	}
}
