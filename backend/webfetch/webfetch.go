// Package webfetch reads a web page for the agent's web_fetch tool: http
// and https only, a size cap, redirects followed only on the same host and
// only a few times, private and loopback addresses refused unless the
// caller allows the host, and HTML turned into Markdown.
//
// The address check is made on the address actually dialled (the dialer's
// Control hook), so a name that resolves to a private address, or changes
// what it resolves to between the check and the request, is refused too.
// Environment proxies are not used: they would dial for us.
package webfetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html/charset"

	"pilot/backend/hostaddr"
	"pilot/backend/option"
)

// Defaults of Options.
const (
	DefaultMaxBytes     = 5 << 20
	DefaultMaxRedirects = 5
	DefaultTimeout      = 30 * time.Second
	userAgent           = "Pilot/1 (web_fetch; +https://github.com/pilot)"
)

var (
	// ErrPrivate: the host is (or resolves to) a private, loopback or
	// link-local address, or one of this machine's own, and no rule
	// allows it.
	ErrPrivate = errors.New("private address")
	// ErrTooManyRedirects: more redirects than Options.MaxRedirects.
	ErrTooManyRedirects = errors.New("too many redirects")
)

// Options tune a fetch; zero values mean the defaults.
type Options struct {
	MaxBytes     int64         // body bytes read; the rest is cut (DefaultMaxBytes)
	MaxRedirects int           // same-host redirects followed (DefaultMaxRedirects)
	Timeout      time.Duration // the whole request (DefaultTimeout)
	// AllowPrivate reports whether a host (name or address, no port) may
	// be reached on a private or loopback address. nil: never.
	AllowPrivate func(host string) bool
	// Resolver resolves host names when the fetch dials (nil:
	// net.DefaultResolver). Nothing is resolved before Fetch is called.
	Resolver *net.Resolver
}

// Page is what a fetch read.
type Page struct {
	URL         string // the final URL, after redirects
	Status      int
	ContentType string // the media type, without parameters
	Title       string
	Markdown    string // the page as Markdown (text content as it is)
	Bytes       int64  // body bytes read
	Cut         bool   // the body was longer than MaxBytes and was cut
	// RedirectTo is set when the server redirected to another host: the
	// redirect is not followed (that host needs its own approval) and
	// Markdown is empty.
	RedirectTo string
}

// Parse checks a URL the model gave: absolute, http or https, with a host
// and no user name or password.
func Parse(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL: %v", raw, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%q is not an http or https URL", raw)
	case u.Hostname() == "":
		return nil, fmt.Errorf("%q has no host", raw)
	case u.User != nil:
		return nil, fmt.Errorf("%q carries a user name or password; give the URL without them", raw)
	}
	u.Fragment = ""
	return u, nil
}

// PrivateName reports whether host is, without any lookup, a private,
// loopback, link-local or unspecified address, or localhost
// (hostaddr.PrivateName). A name that resolves to such an address is
// refused when it is dialled instead.
func PrivateName(host string) bool { return hostaddr.PrivateName(host) }

// Fetch reads u and returns the page.
func Fetch(ctx context.Context, u *url.URL, o Options) (Page, error) {
	o.MaxBytes = option.Or(o.MaxBytes, DefaultMaxBytes)
	o.MaxRedirects = option.Or(o.MaxRedirects, DefaultMaxRedirects)
	o.Timeout = option.Or(o.Timeout, DefaultTimeout)
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	var crossHost string
	client := &http.Client{
		Transport: transport(o.AllowPrivate, o.Resolver),
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return fmt.Errorf("a redirect to %s, which is not http or https", req.URL.Redacted())
			}
			if !strings.EqualFold(req.URL.Hostname(), via[0].URL.Hostname()) {
				crossHost = req.URL.String()
				return http.ErrUseLastResponse
			}
			if len(via) > o.MaxRedirects {
				return fmt.Errorf("%w: more than %d", ErrTooManyRedirects, o.MaxRedirects)
			}
			return nil
		},
	}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Page{}, err
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "text/html, text/markdown, text/plain;q=0.9, application/json;q=0.8, */*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		return Page{}, unwrap(err)
	}
	defer resp.Body.Close()
	p := Page{URL: resp.Request.URL.String(), Status: resp.StatusCode}
	if crossHost != "" {
		p.RedirectTo = crossHost
		return p, nil
	}
	media, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	body, err := io.ReadAll(io.LimitReader(resp.Body, o.MaxBytes+1))
	if err != nil {
		return Page{}, unwrap(err)
	}
	if int64(len(body)) > o.MaxBytes {
		body, p.Cut = body[:o.MaxBytes], true
	}
	p.Bytes = int64(len(body))
	if media == "" {
		media = http.DetectContentType(body)
		media, params, _ = mime.ParseMediaType(media)
	}
	p.ContentType = media
	if !textual(media) {
		return p, fmt.Errorf("the page is %s, not text: web_fetch reads HTML and text only", media)
	}
	text := decode(body, media, params["charset"])
	if media == "text/html" || media == "application/xhtml+xml" {
		p.Title, p.Markdown, err = toMarkdown(ctx, text, p.URL)
		if err != nil {
			return p, fmt.Errorf("the HTML could not be read: %v", err)
		}
	} else {
		p.Markdown = text
	}
	return p, nil
}

// textual reports whether a media type is text web_fetch can show.
func textual(media string) bool {
	return strings.HasPrefix(media, "text/") || media == "application/xhtml+xml" || media == "application/json" ||
		media == "application/xml" || strings.HasSuffix(media, "+json") || strings.HasSuffix(media, "+xml") ||
		media == "application/javascript"
}

// decode turns the body into UTF-8 from its declared (or sniffed) charset.
func decode(body []byte, media, cs string) string {
	if utf8.Valid(body) && (cs == "" || strings.EqualFold(cs, "utf-8")) {
		return string(body)
	}
	r, err := charset.NewReader(bytes.NewReader(body), mime.FormatMediaType(media, map[string]string{"charset": cs}))
	if err != nil {
		return strings.ToValidUTF8(string(body), "\uFFFD")
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return strings.ToValidUTF8(string(body), "\uFFFD")
	}
	return string(b)
}

// transport dials only public addresses, or private ones of the hosts
// allow accepts, and uses no proxy.
func transport(allow func(string) bool, resolver *net.Resolver) *http.Transport {
	return &http.Transport{
		Proxy: nil,
		DialContext: hostaddr.Dialer(allow, resolver, func(host, addr string) error {
			return fmt.Errorf("%w: %s is %s", ErrPrivate, host, addr)
		}),
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  20 * time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
}

// unwrap turns the client's "Get URL: dial tcp: ..." errors into what
// happened.
func unwrap(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var oe *net.OpError
	if errors.As(err, &oe) && errors.Is(oe.Err, ErrPrivate) {
		return oe.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return errors.New("the server did not answer in time")
	}
	return err
}
