package netproxy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// bigBody is the 10 MiB the servers send and take.
var bigBody = func() []byte {
	b := make([]byte, 10<<20)
	for i := range b {
		b[i] = byte(i*7 + i>>12)
	}
	return b
}()

func sum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// world is what the third-party clients talk to: a plain and a TLS
// server on loopback, known to the fake DNS as allowed.test (and, pointing
// at the same servers, refused.test and elsewhere.test), and a proxy
// whose policy allows allowed.test only.
type world struct {
	plain, tls *httptest.Server
	pol        *policy
	dns        *fakeDNS
	proxy      string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello from %s", r.Host)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://elsewhere.test/landing", http.StatusFound)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write(bigBody)
	})
	mux.HandleFunc("/sum", func(w http.ResponseWriter, r *http.Request) {
		h := sha256.New()
		n, err := io.Copy(h, r.Body)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		fmt.Fprintf(w, "%d %x", n, h.Sum(nil))
	})
	w := &world{plain: httptest.NewServer(mux), tls: httptest.NewTLSServer(mux)}
	t.Cleanup(w.plain.Close)
	t.Cleanup(w.tls.Close)
	w.dns = newDNS(map[string]string{"allowed.test": "127.0.0.1", "refused.test": "127.0.0.1", "elsewhere.test": "127.0.0.1"})
	w.pol = &policy{allow: map[string]bool{"allowed.test": true}, private: map[string]bool{"allowed.test": true, "refused.test": true, "elsewhere.test": true}}
	w.proxy, _ = serveProxy(t, context.Background(), w.pol.proxy(w.dns))
	return w
}

// plainURL and tlsURL name the servers by a host the proxy must resolve.
func (w *world) plainURL(t *testing.T, host, path string) string {
	return "http://" + host + ":" + port(t, w.plain.URL) + path
}

func (w *world) tlsURL(t *testing.T, host, path string) string {
	return "https://" + host + ":" + port(t, w.tls.URL) + path
}

// run runs a client with an environment of its own (no proxy unless env
// sets one, no ~/.curlrc) and returns its stdout, stderr and error.
func run(t *testing.T, env []string, name string, args ...string) (string, string, error) {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (make deps-test installs it): %v", name, err)
	}
	cmd := exec.CommandContext(t.Context(), path, args...)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "LANG=C.UTF-8"}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

func curl(t *testing.T, env []string, args ...string) (string, string, error) {
	t.Helper()
	return run(t, env, "curl", append([]string{"-q", "-sS", "--max-time", "60"}, args...)...)
}

func TestCurl(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	proxyURL := "http://" + w.proxy
	check := func(name, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}

	out, _, err := curl(t, nil, "-x", proxyURL, w.plainURL(t, "allowed.test", "/hello"))
	check("plain HTTP through -x", out, "hello from allowed.test:"+port(t, w.plain.URL))
	if err != nil {
		t.Error(err)
	}

	out, _, err = curl(t, []string{"https_proxy=" + proxyURL}, "-k", w.tlsURL(t, "allowed.test", "/hello"))
	check("HTTPS through CONNECT (https_proxy)", out, "hello from allowed.test:"+port(t, w.tls.URL))
	if err != nil {
		t.Error(err)
	}

	out, verbose, err := curl(t, nil, "-v", "-p", "-x", proxyURL, w.plainURL(t, "allowed.test", "/hello"))
	check("plain TCP tunnelled with -p", out, "hello from allowed.test:"+port(t, w.plain.URL))
	if err != nil || !strings.Contains(verbose, "CONNECT allowed.test:"+port(t, w.plain.URL)) {
		t.Errorf("curl -p did not tunnel (%v): %s", err, verbose)
	}

	sentence := "The user did not allow commands to reach refused.test."
	out, _, err = curl(t, nil, "-D", "-", "-x", proxyURL, w.plainURL(t, "refused.test", "/hello"))
	if err != nil || !strings.HasPrefix(out, "HTTP/1.1 403 Forbidden") || !strings.Contains(out, HeaderRefused+": "+sentence+"\r\n") || !strings.HasSuffix(out, "\r\n\r\n"+sentence+"\n") {
		t.Errorf("refused plain HTTP (%v): %q", err, out)
	}
	_, verbose, err = curl(t, nil, "-v", "-k", "-x", proxyURL, w.tlsURL(t, "refused.test", "/hello"))
	if err == nil || !strings.Contains(verbose, "< "+HeaderRefused+": "+sentence) {
		t.Errorf("refused CONNECT (%v): curl -v does not show the sentence: %s", err, verbose)
	}

	out, _, err = curl(t, nil, "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", "-x", proxyURL, w.plainURL(t, "allowed.test", "/redirect"))
	check("a redirect is the client's", out, "302 http://elsewhere.test/landing")
	if err != nil {
		t.Error(err)
	}

	file := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(file, bigBody, 0o600); err != nil {
		t.Fatal(err)
	}
	// 10 MiB up: curl sends Expect: 100-continue for a body this big.
	out, verbose, err = curl(t, nil, "-v", "--data-binary", "@"+file, "-x", proxyURL, w.plainURL(t, "allowed.test", "/sum"))
	check("10 MiB up", out, fmt.Sprintf("%d %s", len(bigBody), sum(bigBody)))
	if err != nil || !strings.Contains(verbose, "Expect: 100-continue") {
		t.Errorf("upload (%v): %s", err, verbose)
	}
	// A refused upload, its body sent without waiting: curl still reads
	// the 403 and its sentence (the proxy does not reset the connection
	// under the body).
	out, _, err = curl(t, nil, "-H", "Expect:", "--data-binary", "@"+file, "-x", proxyURL, w.plainURL(t, "refused.test", "/sum"))
	check("a refused upload", out, sentence+"\n")
	if err != nil {
		t.Error(err)
	}
	down := filepath.Join(t.TempDir(), "down")
	if _, _, err := curl(t, nil, "-o", down, "-x", proxyURL, w.plainURL(t, "allowed.test", "/big")); err != nil {
		t.Error(err)
	}
	got, _ := os.ReadFile(down)
	check("10 MiB down", sum(got), sum(bigBody))
	_, _, err = curl(t, nil, "-k", "-o", down, "-x", proxyURL, w.tlsURL(t, "allowed.test", "/big"))
	got, _ = os.ReadFile(down)
	check("10 MiB down through a tunnel", sum(got), sum(bigBody))
	if err != nil {
		t.Error(err)
	}

	for _, h := range w.pol.askedHosts() {
		if strings.HasPrefix(h, "elsewhere.test") {
			t.Errorf("the proxy judged the redirect's host: %v", w.pol.askedHosts())
		}
	}
	if r := w.pol.refusals(); len(r) != 3 || !strings.HasPrefix(r[0], "refused.test:") {
		t.Errorf("OnRefuse got %q", r)
	}
	if n := w.dns.lookups.Load(); n == 0 {
		t.Error("no lookup reached the fake DNS: the test did not resolve through the proxy's Resolver")
	}
}

// Python's urllib, with the proxy in the environment as commands get it.
func TestPythonURLLib(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	script := `
import ssl, sys, urllib.request, urllib.error
opener = urllib.request.build_opener(urllib.request.ProxyHandler(), urllib.request.HTTPSHandler(context=ssl._create_unverified_context()))
for url in sys.argv[1:]:
    try:
        with opener.open(url, timeout=60) as r:
            print(r.status, r.read().decode())
    except urllib.error.HTTPError as e:
        print(e.code, e.headers.get("X-Pilot-Refused"), "|", e.read().decode().strip())
    except urllib.error.URLError as e:
        print("URLError", e.reason)
`
	env := []string{"http_proxy=http://" + w.proxy, "https_proxy=http://" + w.proxy}
	out, stderr, err := run(t, env, "python3", "-c", script,
		w.plainURL(t, "allowed.test", "/hello"), w.tlsURL(t, "allowed.test", "/hello"),
		w.plainURL(t, "refused.test", "/hello"), w.tlsURL(t, "refused.test", "/hello"))
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	sentence := "The user did not allow commands to reach refused.test."
	want := []string{
		"200 hello from allowed.test:" + port(t, w.plain.URL),
		"200 hello from allowed.test:" + port(t, w.tls.URL),
		"403 " + sentence + " | " + sentence,
		"URLError Tunnel connection failed: 403 Forbidden",
	}
	if got := strings.Split(strings.TrimSpace(out), "\n"); !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
