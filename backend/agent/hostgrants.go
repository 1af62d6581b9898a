package agent

import "sync"

// hostGrants are the hosts the user allowed for one kind of call in a
// session: web_fetch's pages, web_search's services, sandboxed commands'
// connections. A yes holds while Pilot runs; the set only grows. Safe for
// concurrent use.
type hostGrants struct{ hosts sync.Map }

// has reports whether the user allowed host.
func (g *hostGrants) has(host string) bool {
	_, ok := g.hosts.Load(host)
	return ok
}

// add remembers the user's yes to host.
func (g *hostGrants) add(host string) { g.hosts.Store(host, true) }
