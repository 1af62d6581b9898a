// Package netproxy is the filtering HTTP proxy that sandboxed commands
// reach the network through: CONNECT for HTTPS and absolute-form requests
// for plain HTTP, each host judged before Pilot resolves or dials it.
//
// SKELETON: the types and signatures below are the contract between the
// helpers building issue 23; the proxy helper replaces the bodies.
package netproxy

import (
	"context"
	"net"
)

// Proxy serves the connections of one session's commands.
type Proxy struct {
	// Decide judges a host before anything is resolved or dialled: nil
	// lets it through; an error refuses it, and its text is the sentence
	// the command's client receives and the model is told.
	Decide func(ctx context.Context, host string, port int) error
	// Private reports whether host may be opened although it is (or
	// resolves to) a private, loopback or link-local address: only when a
	// rule names it exactly.
	Private func(host string) bool
	// Resolver resolves host names (nil: net.DefaultResolver).
	Resolver *net.Resolver
}

// ServeConn serves one client connection until it closes or ctx ends.
func (p *Proxy) ServeConn(ctx context.Context, c net.Conn) { c.Close() }
