package cli

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"pilot/backend/internal/fakellm"
)

// ownAddr is an address of this machine's interfaces other than loopback
// and link-local, one no address class refuses when there is one (on
// this machine eth0's 192.0.2.2): where a service bound to 0.0.0.0
// answers besides loopback.
func ownAddr(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	best := ""
	for _, x := range addrs {
		n, ok := x.(*net.IPNet)
		if !ok {
			continue
		}
		a, ok := netip.AddrFromSlice(n.IP)
		if a = a.Unmap(); !ok || !a.Is4() || a.IsLoopback() || a.IsLinkLocalUnicast() {
			continue
		}
		if !a.IsPrivate() {
			return a.String()
		}
		best = a.String()
	}
	if best == "" {
		t.Skip("this machine has no IPv4 address but loopback and link-local ones")
	}
	return best
}

// serveAll serves body on every address (0.0.0.0) and counts requests.
func serveAll(t *testing.T, body string) (port string, hits *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp4", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	hits = &atomic.Int32{}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, body)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	_, port, _ = net.SplitHostPort(ln.Addr().String())
	return port, hits
}

// Finding 10.1 of issue 36, on the production binary: a service bound to
// 0.0.0.0 is not reached at the machine's own address through the proxy
// by a sandboxed curl (allow network "*" does not open it), nor by
// web_fetch (mode all), unless a rule names the host exactly.
func TestOwnAddressRefusedBinary(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	addr := ownAddr(t)
	port, hits := serveAll(t, "OWN-SERVICE-ANSWERED")
	url := "http://" + net.JoinHostPort(addr, port) + "/"

	t.Run("proxy", func(t *testing.T) {
		for _, c := range []struct {
			rule  string
			reach bool
		}{{"*", false}, {addr, true}} {
			home := sandboxHome(t)
			dir := tempProject(t, map[string]string{"a.txt": "A\n"})
			before := hits.Load()
			results, stderr := sandboxRun(t, "edits", dir, home, []fakellm.ToolCall{bashCall("c", "curl -sS "+url)},
				[3]string{"allow", "network", c.rule})
			got := results["c"].Content
			if reached := strings.Contains(got, "OWN-SERVICE-ANSWERED"); reached != c.reach || (hits.Load() > before) != c.reach {
				t.Errorf("allow network %s: reached %v, want %v:\n%s\n%s", c.rule, reached, c.reach, got, stderr)
			}
			if !c.reach && !strings.Contains(got, "one of this machine's own") {
				t.Errorf("allow network %s: the refusal does not say why:\n%s", c.rule, got)
			}
		}
	})

	t.Run("web_fetch", func(t *testing.T) {
		for _, c := range []struct {
			rule  string
			reach bool
		}{{"", false}, {addr, true}} {
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{{ID: "f", Name: "web_fetch", Input: []byte(`{"url":"` + url + `"}`)}}},
				{Text: "Fetched.", When: &fakellm.When{HasToolResult: true}},
			}})
			defer srv.Close()
			home := t.TempDir()
			dir := tempProject(t, map[string]string{"a.txt": "A\n"})
			if c.rule != "" {
				addRules(t, home, dir, [3]string{"allow", "web_fetch", c.rule})
			}
			before := hits.Load()
			cmd := command(t, srv, home, "-p", "fetch it", "--project", dir, "--approve", "all")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			got := ""
			for _, r := range srv.Requests() {
				for _, tr := range r.ToolResults {
					got += tr.Content
				}
			}
			if reached := strings.Contains(got, "OWN-SERVICE-ANSWERED"); reached != c.reach || (hits.Load() > before) != c.reach {
				t.Errorf("rule %q: fetched %v, want %v:\n%s\n%s", c.rule, reached, c.reach, got, stderr.String())
			}
		}
	})
}
