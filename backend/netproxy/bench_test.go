//go:build unix

package netproxy

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"syscall"
	"testing"
	"time"
)

// BenchmarkDownload: a 10 MB download from a server on loopback, direct
// and through the proxy, in the same run; plain HTTP (forwarded) and HTTPS
// (tunnelled by CONNECT). Every download opens its connections afresh, as
// a command such as curl does, so the proxy's figure includes its
// decision, its dial and its copy. cpu-ms/op is the CPU time the whole
// process (server, proxy and client) spent per download, which a loaded
// machine's wall-clock figure hides.
func BenchmarkDownload(b *testing.B) {
	body := bigBody[:10_000_000]
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
	plain, secure := httptest.NewServer(h), httptest.NewTLSServer(h)
	defer plain.Close()
	defer secure.Close()
	pol := &policy{allow: map[string]bool{"127.0.0.1": true}, private: map[string]bool{"127.0.0.1": true}}
	addr, _ := serveProxy(b, context.Background(), pol.proxy(newDNS(nil)))
	proxyURL, _ := url.Parse("http://" + addr)
	for _, c := range []struct {
		name  string
		url   string
		proxy bool
	}{
		{"http/direct", plain.URL, false},
		{"http/proxy", plain.URL, true},
		{"https/direct", secure.URL, false},
		{"https/proxy", secure.URL, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			tr := &http.Transport{DisableKeepAlives: true, DisableCompression: true,
				TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}
			if c.proxy {
				tr.Proxy = http.ProxyURL(proxyURL)
			}
			client := &http.Client{Transport: tr}
			b.SetBytes(int64(len(body)))
			var before syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &before)
			for b.Loop() {
				resp, err := client.Get(c.url + "/")
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || n != int64(len(body)) {
					b.Fatalf("read %d bytes: %v", n, err)
				}
			}
			var after syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &after)
			cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}
