// Package namesort sorts file names in a user's language's order, the
// order of the window's Intl.Collator with its default options (CLDR
// collation, tertiary strength, punctuation not ignored), so that the file
// tree can be listed in pages by the backend and shown in the order the
// window used to sort it in.
package namesort

import (
	"bytes"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// Sort sorts names in place in the collation order of locale (a BCP 47
// tag such as "en-US"; an unknown or empty one sorts by the root order).
// Names equal under it (e.g. the same text in two Unicode forms) are in
// byte order, so the result does not depend on the input's order.
func Sort(names []string, locale string) {
	tag := language.Make(locale)
	if rootLike(tag) && allPrintableASCII(names) {
		sortASCII(names)
		return
	}
	sortKeys(names, tag)
}

// rootLike reports whether tag's collation orders printable ASCII as the
// root order does. Only English and the root are assumed to: other
// languages may tailor letters of ASCII (the "ch" of Czech, the "aa" of
// Danish) and take the general path.
func rootLike(tag language.Tag) bool {
	base, _ := tag.Base()
	return base.String() == "en" || base.String() == "und"
}

func allPrintableASCII(names []string) bool {
	for _, n := range names {
		for i := 0; i < len(n); i++ {
			if n[i] < 0x20 || n[i] > 0x7e {
				return false
			}
		}
	}
	return true
}

// keyed is a name with its sort key.
type keyed struct {
	key  []byte
	name string
}

func sortKeyed(ks []keyed, names []string) {
	slices.SortFunc(ks, func(a, b keyed) int {
		if c := bytes.Compare(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	for i, k := range ks {
		names[i] = k.name
	}
}

// sortKeys is the general path: a collation key per name, made on every
// CPU (a Collator is not safe for concurrent use), then one sort by key.
func sortKeys(names []string, tag language.Tag) {
	ks := make([]keyed, len(names))
	inChunks(len(names), func(lo, hi int) {
		c := collate.New(tag)
		var buf collate.Buffer
		for i := lo; i < hi; i++ {
			ks[i] = keyed{key: bytes.Clone(c.KeyFromString(&buf, names[i])), name: names[i]}
			buf.Reset()
		}
	})
	sortKeyed(ks, names)
}

// chunkMin is the number of names from which keys are made on every CPU.
const chunkMin = 2048

// inChunks calls fn on contiguous ranges covering [0, n): one range when n
// is small, else one per CPU, concurrently.
func inChunks(n int, fn func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < chunkMin || workers == 1 {
		fn(0, n)
		return
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += chunk {
		wg.Go(func() { fn(lo, min(n, lo+chunk)) })
	}
	wg.Wait()
}
