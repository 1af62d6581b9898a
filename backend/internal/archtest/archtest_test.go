package archtest

import (
	"slices"
	"strings"
	"testing"
)

// TestModuleBoundaries checks the module as it is against the tables.
func TestModuleBoundaries(t *testing.T) {
	t.Parallel()
	pkgs, err := loadModule()
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; the module has more", len(pkgs))
	}
	broken, stale := check(pkgs, projectRules())
	for _, b := range broken {
		t.Error(b)
	}
	for _, s := range stale {
		t.Error(s)
	}
}

// TestBoundaryCheckFails shows that each rule catches what it is for, on
// made-up graphs checked against made-up rules, and that a graph that keeps
// the rules passes.
func TestBoundaryCheckFails(t *testing.T) {
	t.Parallel()
	newRules := func() rules {
		return rules{
			layers: map[string]int{
				"m": faceLayer, "m/cli": faceLayer, "m/cli/sub": faceLayer, "m/bridge": serviceLayer, "m/notify": serviceLayer,
				"m/service": serviceLayer, "m/agent": agentLayer, "m/store": domainLayer,
				"m/secret": domainLayer, "m/llm": leafLayer, "m/wire": leafLayer, "m/version": leafLayer,
			},
			windowPkg: "m", windowEntry: "main.go", cliPkg: "m/cli", servicePkg: "m/service", wirePkg: "m/wire", bridgePkg: "m/bridge",
			windowOnly:       map[string]bool{"m": true, "m/bridge": true, "m/notify": true},
			faceAllowed:      map[string]map[string]string{"window": {"m/version": "why"}, "entry": {"m/cli": "why"}, "cli": {"m/version": "why"}},
			faceOutside:      map[string]map[string]string{"window": {"wails.io/v2": "why"}, "entry": {"wails.io/v2": "why"}, "cli": {"x.org/term": "why"}},
			faceToRemove:     map[string]map[string]string{"cli": {"m/store": "being moved"}},
			upwardExceptions: map[edge]string{{"m/llm", "m/secret"}: "being fixed"},
		}
	}
	r := newRules()
	good := func() []pkg {
		return []pkg{
			{"m", map[string][]string{
				"main.go": {"m/cli", "m/service", "m/bridge", "wails.io/v2"}, // the entry may import the CLI too
				"app.go":  {"m/service", "m/wire", "m/version", "m/bridge", "wails.io/v2/runtime"},
			}},
			{"m/cli", map[string][]string{"cli.go": {"m/service", "m/wire", "m/version", "m/store", "m/cli/sub", "x.org/term"}}},
			{"m/service", map[string][]string{"service.go": {"m/agent", "m/store", "m/wire"}}},
			{"m/agent", map[string][]string{"agent.go": {"m/store", "m/llm"}}},
			{"m/llm", map[string][]string{"llm.go": {"m/secret"}}},
			{"m/store", map[string][]string{"store.go": {"m/llm", "x.org/sqlite"}}},
			{"m/bridge", map[string][]string{"bridge.go": {"m/notify", "wails.io/v2/runtime"}}},
		}
	}
	if broken, stale := check(good(), r); len(broken)+len(stale) > 0 {
		t.Fatalf("a graph that keeps the rules: broken %q, stale %q", broken, stale)
	}
	for _, c := range []struct {
		name   string
		change func([]pkg) []pkg
		want   string
		rules  func(rules)
	}{
		{"the window imports the CLI", func(p []pkg) []pkg {
			p[0].files["app.go"] = append(p[0].files["app.go"], "m/cli")
			return p
		}, "m (app.go): the window imports the CLI's m/cli", nil},
		{"the window imports the CLI even when faceAllowed lists it", func(p []pkg) []pkg {
			p[0].files["app.go"] = append(p[0].files["app.go"], "m/cli")
			return p
		}, "m (app.go): the window imports the CLI's m/cli", func(r rules) { r.faceAllowed["window"]["m/cli"] = "wrongly" }},
		{"a second window file imports the CLI's sub-package", func(p []pkg) []pkg {
			p[0].files["display.go"] = []string{"m/cli/sub"}
			return p
		}, "m (display.go): the window imports the CLI's m/cli/sub", nil},
		{"the CLI imports the window's bridge", func(p []pkg) []pkg {
			p[1].files["cli.go"] = append(p[1].files["cli.go"], "m/bridge")
			return p
		}, "m/cli (cli.go): the CLI imports the window's m/bridge", nil},
		{"a package under the CLI imports the window", func(p []pkg) []pkg {
			return append(p, pkg{"m/cli/sub", map[string][]string{"sub.go": {"m"}}})
		}, "m/cli/sub (sub.go): the CLI imports the window's m", nil},
		{"a face imports a backend package", func(p []pkg) []pkg {
			p[1].files["run.go"] = []string{"m/agent"}
			return p
		}, "m/cli (run.go): the cli face imports m/agent", nil},
		{"the agent imports the service", func(p []pkg) []pkg {
			p[3].files["agent.go"] = append(p[3].files["agent.go"], "m/service")
			return p
		}, "m/agent (agent.go) imports m/service: only the faces stand on the service", nil},
		{"a domain package imports the agent", func(p []pkg) []pkg {
			p[5].files["store.go"] = append(p[5].files["store.go"], "m/agent")
			return p
		}, "m/store (store.go): a domain package imports m/agent, an agent package above it", nil},
		{"a leaf imports a domain package", func(p []pkg) []pkg {
			p[4].files["more.go"] = []string{"m/store"}
			return p
		}, "m/llm (more.go): a leaf utility package imports m/store, a domain package above it", nil},
		{"a package in no layer", func(p []pkg) []pkg {
			return append(p, pkg{"m/new", map[string][]string{"new.go": nil}})
		}, "m/new is in no layer", nil},
		{"the window imports a domain package", func(p []pkg) []pkg {
			p[0].files["app.go"] = append(p[0].files["app.go"], "m/store")
			return p
		}, "m (app.go): the window face imports m/store", nil},
		{"the window imports what the bridge holds", func(p []pkg) []pkg {
			p[0].files["app.go"] = append(p[0].files["app.go"], "m/notify")
			return p
		}, "m (app.go): the window face imports m/notify", nil},
		{"the entry imports a backend package", func(p []pkg) []pkg {
			p[0].files["main.go"] = append(p[0].files["main.go"], "m/agent")
			return p
		}, "m (main.go): the entry face imports m/agent", nil},
		{"the CLI imports a leaf package", func(p []pkg) []pkg {
			p[1].files["cli.go"] = append(p[1].files["cli.go"], "m/llm")
			return p
		}, "m/cli (cli.go): the cli face imports m/llm", nil},
		{"the window imports a package from outside", func(p []pkg) []pkg {
			p[0].files["app.go"] = append(p[0].files["app.go"], "x.org/term")
			return p
		}, "m (app.go): the window face imports x.org/term, from outside the module", nil},
		{"the CLI imports Wails", func(p []pkg) []pkg {
			p[1].files["cli.go"] = append(p[1].files["cli.go"], "wails.io/v2")
			return p
		}, "m/cli (cli.go): the cli face imports wails.io/v2, from outside the module", nil},
		{"a domain package imports the service", func(p []pkg) []pkg {
			p[5].files["store.go"] = append(p[5].files["store.go"], "m/service")
			return p
		}, "m/store (store.go) imports m/service: only the faces stand on the service", nil},
		{"a face exception no longer needed", func(p []pkg) []pkg {
			p[1].files["cli.go"] = []string{"m/service"}
			return p
		}, "the cli face no longer imports m/store: remove it from faceImportsToRemove", nil},
		{"an upward exception no longer needed", func(p []pkg) []pkg {
			p[4].files["llm.go"] = nil
			return p
		}, "m/llm no longer imports m/secret: remove it from upwardExceptions", nil},
	} {
		r := newRules()
		if c.rules != nil {
			c.rules(r)
		}
		broken, stale := check(c.change(good()), r)
		got := append(broken, stale...)
		if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, c.want) }) {
			t.Errorf("%s: the check said %q, want a line starting %q", c.name, got, c.want)
		}
	}
}
