package namesort

import (
	"runtime"
	"slices"
	"sync"
	"unsafe"

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

// sortASCII sorts printable ASCII names by the root collation. Each name
// becomes one string: its primary ranks, 0, its tertiary ranks, 0, the name
// (ranks are never 0, nor is a byte of the name), so that one comparison of
// those strings compares by primary weights, then tertiary ones, then bytes.
func sortASCII(names []string) {
	r := asciiRanks()
	size := 0
	for _, n := range names {
		size += 3*len(n) + 2
	}
	buf := make([]byte, 0, size) // never grows: the keys point into it
	ks := make([]string, len(names))
	for i, n := range names {
		start := len(buf)
		for j := 0; j < len(n); j++ {
			buf = append(buf, r.primary[n[j]])
		}
		buf = append(buf, 0)
		for j := 0; j < len(n); j++ {
			buf = append(buf, r.tertiary[n[j]])
		}
		buf = append(buf, 0)
		buf = append(buf, n...)
		ks[i] = unsafe.String(unsafe.SliceData(buf[start:]), len(buf)-start)
	}
	ks = sortStrings(ks)
	// The names, out of the keys into a buffer of their own (the keys'
	// buffer, three times as large, is not kept).
	out := make([]byte, 0, (size-2*len(names))/3)
	for i, k := range ks {
		name := k[2*((len(k)-2)/3)+2:]
		start := len(out)
		out = append(out, name...)
		names[i] = unsafe.String(unsafe.SliceData(out[start:]), len(name))
	}
}

// sortStrings sorts ks, for many strings its two halves at once then
// merged; it returns the sorted slice (ks or a new one).
func sortStrings(ks []string) []string {
	if len(ks) < chunkMin || runtime.GOMAXPROCS(0) == 1 {
		slices.Sort(ks)
		return ks
	}
	a, b := ks[:len(ks)/2], ks[len(ks)/2:]
	var wg sync.WaitGroup
	wg.Go(func() { slices.Sort(a) })
	slices.Sort(b)
	wg.Wait()
	out := make([]string, 0, len(ks))
	for len(a) > 0 && len(b) > 0 {
		if b[0] < a[0] {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}
