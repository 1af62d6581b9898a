package hostaddr

import (
	"errors"
	"net"
	"net/netip"
	"testing"
)

func TestBlocked(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "127.9.9.9": true, "10.1.2.3": true, "172.16.0.1": true, "192.168.0.1": true,
		"169.254.169.254": true, "100.64.0.1": true, "100.100.100.200": true, "0.0.0.0": true, "224.0.0.1": true,
		"::1": true, "::": true, "fd00::1": true, "fd00:ec2::254": true, "fe80::1": true, "ff02::1": true,
		"::ffff:127.0.0.1": true, "::ffff:10.0.0.1": true,
		"8.8.8.8": false, "1.1.1.1": false, "100.128.0.1": false, "2001:4860:4860::8888": false, "::ffff:8.8.8.8": false,
	} {
		if got := Blocked(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Blocked(%s) = %v, want %v", addr, got, want)
		}
	}
}

func TestPrivateName(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]bool{
		"127.0.0.1": true, "[::1]": true, "::1": true, "localhost": true, "a.localhost": true, "LOCALHOST.": true,
		"169.254.169.254": true, "example.org": false, "10.0.0.1.nip.io": false, "8.8.8.8": false, "": false,
	} {
		if got := PrivateName(host); got != want {
			t.Errorf("PrivateName(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestOwnAddresses: every address of this machine's interfaces is refused
// like loopback, whatever its class (on this machine eth0's 192.0.2.2,
// which no other class covers), literal or resolved.
func TestOwnAddresses(t *testing.T) {
	t.Parallel()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range addrs {
		n, ok := x.(*net.IPNet)
		if !ok {
			continue
		}
		a, _ := netip.AddrFromSlice(n.IP)
		if !Blocked(a) || !Own(a) || !PrivateName(a.String()) {
			t.Errorf("%s, an address of this machine, is not refused", a)
		}
	}
	if Own(netip.MustParseAddr("8.8.8.8")) {
		t.Error("8.8.8.8 taken for this machine's own")
	}
}

// TestOwnAddressesFake: an address on an interface is the machine's own,
// a mapped one too; when the interfaces cannot be read every address
// counts as the machine's own.
func TestOwnAddressesFake(t *testing.T) { // not parallel: it replaces interfaceAddrs
	defer func(f func() ([]net.Addr, error)) { interfaceAddrs = f }(interfaceAddrs)
	interfaceAddrs = func() ([]net.Addr, error) {
		return []net.Addr{&net.IPNet{IP: net.ParseIP("198.51.100.7"), Mask: net.CIDRMask(24, 32)},
			&net.IPAddr{IP: net.ParseIP("2001:db8::7")}}, nil
	}
	for addr, want := range map[string]bool{
		"198.51.100.7": true, "::ffff:198.51.100.7": true, "2001:db8::7": true, "198.51.100.8": false, "8.8.8.8": false,
	} {
		if got := Blocked(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Blocked(%s) = %v, want %v", addr, got, want)
		}
	}
	interfaceAddrs = func() ([]net.Addr, error) { return nil, errors.New("netlink refused") }
	if !Blocked(netip.MustParseAddr("8.8.8.8")) {
		t.Error("with the interfaces unreadable, 8.8.8.8 was not refused")
	}
}

// BenchmarkBlockedPublic: the check of a public address, which reads the
// machine's interfaces (the proxy's and web_fetch's cost per dial).
func BenchmarkBlockedPublic(b *testing.B) {
	a := netip.MustParseAddr("8.8.8.8")
	for b.Loop() {
		if Blocked(a) {
			b.Fatal("8.8.8.8 blocked")
		}
	}
}
