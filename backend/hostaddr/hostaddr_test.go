package hostaddr

import (
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
