package namesort

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// goldenDir holds names in the order the window's Intl.Collator gives
// them (frontend/src/lib/__tests__/treePages.test.ts checks the same files
// against the JavaScript engine's collator): the order Sort must give.
const goldenDir = "../../frontend/src/lib/__tests__/collation/"

// golden reads the names of goldenDir/FILE.
func golden(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(goldenDir + file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		names = append(names, sc.Text())
	}
	return names
}

func TestSortMatchesGolden(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ file, locale string }{
		{"en.txt", "en-US"},
		{"en.txt", ""},
		{"ascii.txt", "en"},
		{"ascii.txt", "en-GB"},
		{"sv.txt", "sv"},
	} {
		t.Run(c.file+"/"+c.locale, func(t *testing.T) {
			t.Parallel()
			want := golden(t, c.file)
			for seed := range uint64(5) {
				got := slices.Clone(want)
				rand.New(rand.NewPCG(seed, 1)).Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
				Sort(got, c.locale)
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d:\n got %q\nwant %q", seed, got, want)
				}
			}
		})
	}
}

// TestASCIIMatchesCollator checks the fast path for ASCII names against
// the root collator on random names rich in ties at the primary level.
func TestASCIIMatchesCollator(t *testing.T) {
	t.Parallel()
	const alphabet = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCXYZ[\\]^_`abcxyz{|}~"
	rng := rand.New(rand.NewPCG(7, 7))
	name := func() string {
		var b strings.Builder
		for range rng.IntN(6) {
			c := alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(3) == 0 { // repeat a letter in the other case
				c = "aAbBcCxXyYzZ"[rng.IntN(12)]
			}
			b.WriteByte(c)
		}
		return b.String()
	}
	names := make([]string, 20000)
	for i := range names {
		names[i] = name()
	}
	got := slices.Clone(names)
	sortASCII(got)
	want := slices.Clone(names)
	c := collate.New(language.Und)
	slices.SortStableFunc(want, func(a, b string) int {
		if r := c.CompareString(a, b); r != 0 {
			return r
		}
		return strings.Compare(a, b)
	})
	if !slices.Equal(got, want) {
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("first difference at %d: got %q, want %q", i, got[i], want[i])
			}
		}
	}
}

func TestSortEdgeCases(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		in     []string
		locale string
		want   []string
	}{
		{"empty", nil, "en", nil},
		{"one", []string{"a"}, "en", []string{"a"}},
		{"case ties broken lower first", []string{"B", "a", "b", "A"}, "en", []string{"a", "A", "b", "B"}},
		{"unknown locale is the root", []string{"b", "ä", "a"}, "zz-bogus", []string{"a", "ä", "b"}},
		{"control characters take the general path", []string{"b\x01", "a\x01", "a"}, "en", []string{"a", "a\x01", "b\x01"}},
		{"canonically equal names by bytes", []string{"e\u0301", "\u00e9"}, "en", []string{"e\u0301", "\u00e9"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := slices.Clone(c.in)
			Sort(got, c.locale)
			if !slices.Equal(got, c.want) {
				t.Fatalf("Sort(%q, %q) = %q, want %q", c.in, c.locale, got, c.want)
			}
		})
	}
}

func BenchmarkSort(b *testing.B) {
	for _, c := range []struct{ name, prefix string }{{"ascii100k", "file"}, {"unicode100k", "fïle"}} {
		b.Run(c.name, func(b *testing.B) {
			names := make([]string, 100_000)
			for i := range names {
				names[i] = c.prefix + fmt.Sprintf("%06d", i*7919%100000) + ".txt"
			}
			work := make([]string, len(names))
			for b.Loop() {
				copy(work, names)
				Sort(work, "en-US")
			}
		})
	}
}
