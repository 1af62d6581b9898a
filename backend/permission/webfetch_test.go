package permission

import (
	"reflect"
	"testing"
)

// web_fetch is judged like a command, with rules on the host.
func TestCheckWebFetch(t *testing.T) {
	t.Parallel()
	fetch := func(host string) Request { return Request{Tool: WebFetchTool, Host: host} }
	rules := []Rule{
		{Tool: WebFetchTool, Pattern: "*.golang.org", Effect: Allow},
		{Tool: WebFetchTool, Pattern: "pkg.go.dev", Effect: Allow},
		{Tool: WebFetchTool, Pattern: "evil.golang.org", Effect: Deny},
		{Tool: Edits, Pattern: "**", Effect: Allow},
		{Tool: BashTool, Pattern: "*", Effect: Allow},
	}
	cases := []struct {
		name string
		mode Mode
		req  Request
		want Verdict
	}{
		{"ask mode asks for a new host", ModeAsk, fetch("example.org"), AskUser},
		{"edits mode asks too", ModeEdits, fetch("example.org"), AskUser},
		{"all fetches", ModeAll, fetch("example.org"), Run},
		{"none refuses", ModeNone, fetch("example.org"), Refuse},
		{"plan asks, as reading a page changes nothing", ModePlan, fetch("example.org"), AskUser},
		{"plan follows a host rule", ModePlan, fetch("pkg.go.dev"), Run},
		{"plan keeps deny rules", ModePlan, fetch("evil.golang.org"), Refuse},
		{"host rule", ModeAsk, fetch("pkg.go.dev"), Run},
		{"host rule folds case", ModeAsk, fetch("PKG.go.dev"), Run},
		{"subdomain rule", ModeAsk, fetch("go.golang.org"), Run},
		{"subdomain rule is not the apex", ModeAsk, fetch("golang.org"), AskUser},
		{"deny beats allow", ModeAll, fetch("evil.golang.org"), Refuse},
		{"an edits or command rule allows no host", ModeAsk, fetch("docs"), AskUser},
		{"a rule on another host", ModeAsk, fetch("pkg.go.dev.evil.com"), AskUser},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := Check(c.mode, rules, c.req); got.Verdict != c.want {
				t.Errorf("got %v (%s), want %v", got.Verdict, got.Reason, c.want)
			}
		})
	}
	got := AlwaysAllow(fetch("Docs.Example.org"))
	want := []Rule{{Tool: WebFetchTool, Pattern: "docs.example.org", Effect: Allow}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("AlwaysAllow = %v, want %v", got, want)
	}
}
