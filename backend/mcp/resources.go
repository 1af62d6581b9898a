package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxResources caps the resources listed per server (the @ picker
// searches them; a server with thousands pages them, and the rest are
// left out).
const maxResources = 500

// maxResourceText caps a resource's text attached to a prompt.
const maxResourceText = 256 << 10

// ResourceInfo is a resource a server offers, attachable with @.
type ResourceInfo struct {
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Description string `json:"description"`
	MIMEType    string `json:"mimeType"`
}

func listResources(ctx context.Context, server string, sess *sdk.ClientSession) ([]ResourceInfo, error) {
	if !offers(sess, func(c *sdk.ServerCapabilities) bool { return c.Resources != nil }) {
		return nil, nil
	}
	return collect(sess.Resources(ctx, nil), maxResources, func(r *sdk.Resource) ResourceInfo {
		return ResourceInfo{Server: server, URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType}
	})
}

// refreshResources lists the resources again after
// notifications/resources/list_changed (a listing that fails keeps the
// pages it got).
func (s *server) refreshResources(ctx context.Context, sess *sdk.ClientSession) {
	relist(ctx, s, sess, listResources, "mcp: listing resources", true, func(r []ResourceInfo) { s.resources = r })
}

// FindResources returns up to limit resources of ready servers whose
// name, URI or server contains query (case-insensitive).
func (h *Hub) FindResources(query string, limit int) []ResourceInfo {
	q := strings.ToLower(query)
	var out []ResourceInfo
	h.eachServer(func(s *server) {
		if s.state == Ready {
			for _, r := range s.resources {
				if len(out) < limit && strings.Contains(strings.ToLower(r.Server+":"+r.Name+" "+r.URI), q) {
					out = append(out, r)
				}
			}
		}
	})
	return out
}

// ReadResource reads a resource of server as text (binary contents are
// described, not included).
func (h *Hub) ReadResource(ctx context.Context, server, uri string) (string, error) {
	h.mu.Lock()
	s := h.servers[server]
	h.mu.Unlock()
	if s == nil {
		return "", fmt.Errorf("%w: %s", ErrNoServer, server)
	}
	s.mu.Lock()
	sess, state := s.sess, s.state
	s.mu.Unlock()
	if sess == nil || state != Ready {
		return "", fmt.Errorf("%w: %s is %s", ErrNotReady, server, state)
	}
	cctx, cancel := context.WithTimeout(ctx, time.Duration(h.timeout.Load()))
	defer cancel()
	res, err := sess.ReadResource(cctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return "", fmt.Errorf("reading %s from %s: %v", uri, server, err)
	}
	var parts []string
	for _, c := range res.Contents {
		if c.Text != "" {
			parts = append(parts, c.Text)
		} else if len(c.Blob) > 0 {
			parts = append(parts, fmt.Sprintf("[%s, %s, %d bytes of binary content not included]", c.URI, c.MIMEType, len(c.Blob)))
		}
	}
	text := strings.Join(parts, "\n")
	if len(text) > maxResourceText {
		text = text[:maxResourceText] + fmt.Sprintf("\n[... cut at %d KiB ...]", maxResourceText>>10)
	}
	return text, nil
}
