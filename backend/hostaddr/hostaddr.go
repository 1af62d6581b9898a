// Package hostaddr tells which addresses Pilot's network paths (web_fetch,
// the proxy of sandboxed commands, an MCP server's sign-in) refuse unless
// a rule names the host, and dials with that check (Dialer):
// loopback, private, link-local (the cloud metadata address 169.254.169.254
// among them), unspecified, multicast and carrier-grade NAT addresses, and
// every address of this machine's own interfaces (a public address on most
// machines, where a service bound to 0.0.0.0 answers as on loopback).
package hostaddr

import (
	"net"
	"net/netip"
	"strings"
)

// cgnat is carrier-grade NAT's shared space (RFC 6598): Alibaba's metadata
// service lives there (100.100.100.200), and so do many VPNs' hosts.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// Blocked reports whether a is not a public address, or is one of this
// machine's own. An IPv4 address mapped into IPv6 (::ffff:127.0.0.1) is
// judged as the IPv4 address.
func Blocked(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsUnspecified() || a.IsMulticast() || a.IsInterfaceLocalMulticast() || cgnat.Contains(a) || Own(a)
}

// interfaceAddrs lists the addresses of this machine's interfaces
// (net.InterfaceAddrs; a variable for tests).
var interfaceAddrs = net.InterfaceAddrs

// Own reports whether a is an address of one of this machine's
// interfaces, read now (about 30 µs: each check sees an address added a
// moment ago). When they cannot be read, every address counts as the
// machine's own: a refusal says so rather than a service on the machine
// being reached.
func Own(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	addrs, err := interfaceAddrs()
	if err != nil {
		return true
	}
	for _, x := range addrs {
		var ip net.IP
		switch v := x.(type) {
		case *net.IPNet:
			ip = v.IP
		case *net.IPAddr:
			ip = v.IP
		}
		if own, ok := netip.AddrFromSlice(ip); ok && own.Unmap() == a {
			return true
		}
	}
	return false
}

// PrivateName reports whether host is, without any lookup, a blocked
// address or localhost: an address literal (brackets allowed) or a name
// that needs no DNS. A name that resolves to such an address is caught
// when its addresses are checked instead.
func PrivateName(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return Blocked(a)
	}
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}
