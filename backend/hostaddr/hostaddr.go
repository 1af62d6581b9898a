// Package hostaddr tells which addresses Pilot's network paths (web_fetch
// and the proxy of sandboxed commands) refuse unless a rule names the host:
// loopback, private, link-local (the cloud metadata address 169.254.169.254
// among them), unspecified, multicast and carrier-grade NAT addresses.
package hostaddr

import (
	"net/netip"
	"strings"
)

// cgnat is carrier-grade NAT's shared space (RFC 6598): Alibaba's metadata
// service lives there (100.100.100.200), and so do many VPNs' hosts.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// Blocked reports whether a is not a public address. An IPv4 address
// mapped into IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address.
func Blocked(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsUnspecified() || a.IsMulticast() || a.IsInterfaceLocalMulticast() || cgnat.Contains(a)
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
