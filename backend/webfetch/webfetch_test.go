package webfetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// server serves the pages the tests read, on a loopback address.
func server(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>Gopher  facts</title><script>alert(1)</script><style>p{}</style></head>
<body><nav><a href="/">Home</a> menu entries</nav><h1>Gophers</h1><p>Gophers are <strong>burrowing</strong> rodents. See <a href="/more">more</a>.</p>
<ul><li>one</li><li>two</li></ul><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table><footer>copyright</footer></body></html>`)
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write([]byte("caf\xe9"))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat("x", 10000)))
	})
	mux.HandleFunc("/image", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n"))
	})
	mux.HandleFunc("/hop/{n}", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscan(r.PathValue("n"), &n)
		if n == 0 {
			fmt.Fprint(w, "arrived")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://example.invalid/elsewhere", http.StatusMovedPermanently)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func allowAll(string) bool { return true }

func TestFetch(t *testing.T) {
	t.Parallel()
	srv := server(t)
	tests := []struct {
		name    string
		path    string
		opt     Options
		want    []string // in the Markdown
		notWant []string
		cut     bool
		err     string
		redir   string
	}{
		{name: "html to markdown", path: "/page", opt: Options{AllowPrivate: allowAll},
			want:    []string{"# Gophers", "**burrowing**", "[more](" + srv.URL + "/more)", "- one", "| k | v |"},
			notWant: []string{"alert(1)", "p{}", "menu entries", "copyright"}},
		{name: "charset", path: "/latin1", opt: Options{AllowPrivate: allowAll}, want: []string{"café"}},
		{name: "size cap", path: "/big", opt: Options{AllowPrivate: allowAll, MaxBytes: 100}, cut: true},
		{name: "not text", path: "/image", opt: Options{AllowPrivate: allowAll}, err: "image/png, not text"},
		{name: "redirects within the limit", path: "/hop/3", opt: Options{AllowPrivate: allowAll, MaxRedirects: 3}, want: []string{"arrived"}},
		{name: "redirect limit", path: "/hop/4", opt: Options{AllowPrivate: allowAll, MaxRedirects: 3}, err: "too many redirects"},
		{name: "another host is not followed", path: "/away", opt: Options{AllowPrivate: allowAll}, redir: "http://example.invalid/elsewhere"},
		{name: "loopback refused without a rule", path: "/page", err: "private address"},
		{name: "loopback refused for another host's rule", path: "/page", opt: Options{AllowPrivate: func(h string) bool { return h == "localhost" }}, err: "private address"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			u, err := Parse(srv.URL + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Fetch(context.Background(), u, tc.opt)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.RedirectTo != tc.redir {
				t.Fatalf("RedirectTo = %q, want %q", p.RedirectTo, tc.redir)
			}
			for _, w := range tc.want {
				if !strings.Contains(p.Markdown, w) {
					t.Errorf("markdown lacks %q:\n%s", w, p.Markdown)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(p.Markdown, w) {
					t.Errorf("markdown holds %q:\n%s", w, p.Markdown)
				}
			}
			if p.Cut != tc.cut || (tc.cut && len(p.Markdown) != 100) {
				t.Errorf("cut = %v (%d bytes), want %v", p.Cut, len(p.Markdown), tc.cut)
			}
		})
	}
}

func TestTitle(t *testing.T) {
	t.Parallel()
	srv := server(t)
	u, _ := Parse(srv.URL + "/page")
	p, err := Fetch(context.Background(), u, Options{AllowPrivate: allowAll})
	if err != nil || p.Title != "Gopher facts" || p.ContentType != "text/html" {
		t.Fatalf("title %q type %q err %v", p.Title, p.ContentType, err)
	}
}

func TestPrivateError(t *testing.T) {
	t.Parallel()
	srv := server(t)
	u, _ := Parse(srv.URL + "/page")
	_, err := Fetch(context.Background(), u, Options{})
	if !errors.Is(err, ErrPrivate) {
		t.Fatalf("err = %v, want ErrPrivate", err)
	}
}

func TestParseAndPrivate(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"ftp://x.org/", "file:///etc/passwd", "/relative", "http://user:pw@x.org/", "http:///nohost"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	for host, want := range map[string]bool{"127.0.0.1": true, "10.1.2.3": true, "192.168.0.1": true, "169.254.169.254": true,
		"::1": true, "fd00::1": true, "0.0.0.0": true, "100.64.0.1": true, "8.8.8.8": false, "2001:4860:4860::8888": false,
		"localhost": true, "a.localhost": true, "LOCALHOST.": true, "example.org": false, "10.0.0.1.nip.io": false} {
		if got := PrivateName(host); got != want {
			t.Errorf("PrivateName(%s) = %v; want %v", host, got, want)
		}
	}
}
