package permission

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// A sandboxed command's connection is judged by the network rules on its
// host, like web_fetch by its own: deny, then the mode, then allow rules,
// then asking.
func TestCheckNetwork(t *testing.T) {
	t.Parallel()
	conn := func(host string) Request { return Request{Tool: NetworkTool, Host: host} }
	rules := []Rule{
		{Tool: NetworkTool, Pattern: "registry.npmjs.org", Effect: Allow},
		{Tool: NetworkTool, Pattern: "*.github.com", Effect: Allow},
		{Tool: NetworkTool, Pattern: "evil.github.com", Effect: Deny},
		{Tool: NetworkTool, Pattern: "::1", Effect: Allow},
		{Tool: WebFetchTool, Pattern: "pkg.go.dev", Effect: Allow},
		{Tool: Edits, Pattern: "**", Effect: Allow},
		{Tool: BashTool, Pattern: "*", Effect: Allow},
	}
	denyAll := append([]Rule{{Tool: NetworkTool, Pattern: "*", Effect: Deny}}, rules...)
	cases := []struct {
		name  string
		mode  Mode
		rules []Rule
		req   Request
		want  Verdict
	}{
		{"an allowed host runs", ModeAsk, rules, conn("registry.npmjs.org"), Run},
		{"host rules fold case", ModeAsk, rules, conn("Registry.NPMJS.org"), Run},
		{"a subdomain rule", ModeAsk, rules, conn("api.github.com"), Run},
		{"a subdomain rule is not the apex", ModeAsk, rules, conn("github.com"), AskUser},
		{"an IPv6 address rule", ModeAsk, rules, conn("::1"), Run},
		{"a new host asks", ModeAsk, rules, conn("example.org"), AskUser},
		{"edits mode asks for a new host too", ModeEdits, rules, conn("example.org"), AskUser},
		{"edits mode runs an allowed host", ModeEdits, rules, conn("registry.npmjs.org"), Run},
		{"all runs", ModeAll, rules, conn("example.org"), Run},
		{"none refuses", ModeNone, rules, conn("example.org"), Refuse},
		{"none refuses an allowed host as well", ModeNone, rules, conn("registry.npmjs.org"), Refuse},
		{"plan asks, as web_fetch does", ModePlan, rules, conn("example.org"), AskUser},
		{"plan follows an allow rule", ModePlan, rules, conn("registry.npmjs.org"), Run},
		{"deny beats allow", ModeAsk, rules, conn("evil.github.com"), Refuse},
		{"deny beats mode all", ModeAll, rules, conn("evil.github.com"), Refuse},
		{"deny network * refuses every host", ModeAll, denyAll, conn("registry.npmjs.org"), Refuse},
		{"a web_fetch rule opens no command's network", ModeAsk, rules, conn("pkg.go.dev"), AskUser},
		{"neither do edits nor command rules", ModeAsk, rules, conn("docs"), AskUser},
		{"read-only does not skip the rules", ModeAsk, rules, Request{Tool: NetworkTool, Host: "example.org", ReadOnly: true}, AskUser},
		{"a network rule opens no web_fetch", ModeAsk, rules, Request{Tool: WebFetchTool, Host: "registry.npmjs.org"}, AskUser},
		{"a network deny rule refuses no web_fetch", ModeAsk, denyAll, Request{Tool: WebFetchTool, Host: "pkg.go.dev"}, Run},
		{"no host matches nothing", ModeAsk, []Rule{{Tool: NetworkTool, Pattern: "*", Effect: Allow}}, conn(""), AskUser},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d := Check(c.mode, c.rules, c.req)
			if d.Verdict != c.want {
				t.Fatalf("got %v (%s), want %v", d.Verdict, d.Reason, c.want)
			}
			if d.Verdict == Refuse && d.Rule != nil && d.Rule.Tool != c.req.Tool {
				t.Errorf("refused by %v, a rule of another tool", d.Rule)
			}
		})
	}
}

// "Always" for a connection stores the exact host as a network rule,
// valid and enough to let the same host through next time, and no other.
func TestAlwaysAllowNetwork(t *testing.T) {
	t.Parallel()
	got := AlwaysAllow(Request{Tool: NetworkTool, Host: "Registry.npmjs.org"})
	want := []Rule{{Tool: NetworkTool, Pattern: "registry.npmjs.org", Effect: Allow}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("AlwaysAllow = %v, want %v", got, want)
	}
	for _, host := range []string{"registry.npmjs.org", "::1", "2001:db8::1", "127.0.0.1", "xn--bcher-kva.de", "a_b.test", "weird[x].test"} {
		rs := AlwaysAllow(Request{Tool: NetworkTool, Host: host})
		for _, r := range rs {
			if err := Validate(r, Known(nil, nil)); err != nil {
				t.Errorf("%s: always stores an invalid rule: %v", host, err)
			}
		}
		if d := Check(ModeAsk, rs, Request{Tool: NetworkTool, Host: host}); d.Verdict != Run {
			t.Errorf("%s: %v does not let it through next time: %s", host, rs, d.Reason)
		}
		if d := Check(ModeAsk, rs, Request{Tool: NetworkTool, Host: "x" + host}); d.Verdict != AskUser {
			t.Errorf("%s: %v lets x%s through", host, rs, host)
		}
	}
}

// Only an allow rule of the asking tool naming the host exactly opens a
// private address: network rules for commands, web_fetch rules for
// web_fetch.
func TestNamesHostFor(t *testing.T) {
	t.Parallel()
	network := func(p string) Rule { return Rule{Tool: NetworkTool, Pattern: p, Effect: Allow} }
	fetch := func(p string) Rule { return Rule{Tool: WebFetchTool, Pattern: p, Effect: Allow} }
	cases := []struct {
		tool string
		r    Rule
		host string
		want bool
	}{
		{NetworkTool, network("localhost"), "localhost", true},
		{NetworkTool, network("LocalHost."), "localhost", true},
		{NetworkTool, network("127.0.0.1"), "127.0.0.1", true},
		{NetworkTool, network("::1"), "::1", true},
		{NetworkTool, network("*"), "localhost", false},
		{NetworkTool, network("*.internal"), "db.internal", false},
		{NetworkTool, network("localhost"), "127.0.0.1", false},
		{NetworkTool, Rule{Tool: NetworkTool, Pattern: "localhost", Effect: Deny}, "localhost", false},
		{NetworkTool, fetch("localhost"), "localhost", false},
		{WebFetchTool, network("localhost"), "localhost", false},
		{WebFetchTool, fetch("localhost"), "localhost", true},
		{BashTool, Rule{Tool: BashTool, Pattern: "localhost", Effect: Allow}, "localhost", false},
	}
	for _, c := range cases {
		if got := NamesHostFor(c.tool, c.r, c.host); got != c.want {
			t.Errorf("NamesHostFor(%s, %v, %q) = %v, want %v", c.tool, c.r, c.host, got, c.want)
		}
	}
	if NamesHost(network("localhost"), "localhost") {
		t.Error("NamesHost, web_fetch's, counts a network rule")
	}
}

// A network rule's pattern is a host: network is a known tool, and a URL,
// a port, a path or brackets are refused with a sentence.
func TestValidateNetwork(t *testing.T) {
	t.Parallel()
	known := Known([]string{"run_bash", "web_fetch", "read_file"}, nil)
	for _, p := range []string{"registry.npmjs.org", "*.github.com", "*", "127.0.0.1", "::1", "2001:db8::*", "localhost"} {
		if err := Validate(Rule{Tool: NetworkTool, Pattern: p, Effect: Allow}, known); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
	for p, says := range map[string]string{
		"https://registry.npmjs.org/": "is a URL",
		"registry.npmjs.org/pkg":      "not a host name",
		"user@example.org":            "not a host name",
		"localhost:8080":              "names a port",
		"[::1]":                       "without them",
	} {
		err := Validate(Rule{Tool: NetworkTool, Pattern: p, Effect: Allow}, known)
		if err == nil || !errors.Is(err, ErrInvalidRule) || !strings.Contains(err.Error(), says) || !strings.HasSuffix(err.Error(), ".") {
			t.Errorf("%q: %v, want a sentence saying %q", p, err, says)
		}
	}
	for tool, want := range map[string]string{"Network": "write network instead", "net": "write network instead", "internet": "write network instead"} {
		err := Validate(Rule{Tool: tool, Pattern: "*", Effect: Allow}, known)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("tool %q: %v, want %q", tool, err, want)
		}
	}
	// web_fetch patterns are not held to the host form (stored rules stay valid).
	if err := Validate(Rule{Tool: WebFetchTool, Pattern: "localhost:8080", Effect: Allow}, known); err != nil {
		t.Errorf("a web_fetch rule: %v", err)
	}
}
