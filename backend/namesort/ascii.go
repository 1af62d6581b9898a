package namesort

import (
	"slices"
	"sync"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// The root collation gives every printable ASCII character exactly one
// collation element, none ignorable: a primary weight (letters of either
// case share one), no secondary difference, and a tertiary one (lower case
// before upper). So the collation key of an ASCII name is the sequence of
// its characters' primary ranks, a separator lower than any rank, then the
// sequence of their tertiary ranks: comparing those bytes is comparing the
// names by collation, about twenty times faster than the general keys.
// TestASCIIMatchesCollator checks this against the collator.

// asciiRanks holds, for each printable ASCII byte, its primary rank (from 1)
// and its tertiary rank within the characters of that primary weight (from
// 1), both derived from the root collator once.
var asciiRanks = sync.OnceValue(func() (r struct{ primary, tertiary [128]byte }) {
	chars := make([]string, 0, 0x7f-0x20)
	for b := byte(0x20); b < 0x7f; b++ {
		chars = append(chars, string(rune(b)))
	}
	full := collate.New(language.Und)
	loose := collate.New(language.Und, collate.Loose)
	slices.SortStableFunc(chars, full.CompareString)
	var primary, tertiary byte
	for i, s := range chars {
		if i == 0 || loose.CompareString(chars[i-1], s) != 0 {
			primary++
			tertiary = 0
		}
		tertiary++
		r.primary[s[0]], r.tertiary[s[0]] = primary, tertiary
	}
	return r
})

// sortASCII sorts printable ASCII names by the root collation.
func sortASCII(names []string) {
	r := asciiRanks()
	size := 0
	for _, n := range names {
		size += 2*len(n) + 1
	}
	buf := make([]byte, 0, size)
	ks := make([]keyed, len(names))
	for i, n := range names {
		start := len(buf)
		for j := 0; j < len(n); j++ {
			buf = append(buf, r.primary[n[j]])
		}
		buf = append(buf, 0)
		for j := 0; j < len(n); j++ {
			buf = append(buf, r.tertiary[n[j]])
		}
		ks[i] = keyed{key: buf[start:len(buf):len(buf)], name: n}
	}
	sortKeyed(ks, names)
}
