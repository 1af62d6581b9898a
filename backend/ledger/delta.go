package ledger

import (
	"encoding/binary"
	"math/bits"
)

// A delta rebuilds a target from a base: a sequence of operations, each
// starting with uvarint(n<<1 | op):
//
//	op 0 (insert): the next n bytes of the delta are copied to the output
//	op 1 (copy):   uvarint(offset) follows; base[offset:offset+n] is copied
//
// Common runs are found with a table of the base's aligned 16-byte blocks:
// every position of the target is looked up, and a hit is extended both
// ways byte by byte. Runs of at least 2*deltaBlock-1 bytes are always
// found; shorter ones may be inserted instead. Unchanged stretches are
// skipped in one step, so a small edit of a large file costs about one
// pass over it.

// deltaBlock is the length of the blocks indexed in the base.
const deltaBlock = 16

const (
	opInsert = 0
	opCopy   = 1
)

// blockHash mixes the 16 bytes at p.
func blockHash(p []byte) uint64 {
	a := binary.LittleEndian.Uint64(p)
	b := binary.LittleEndian.Uint64(p[8:])
	h := a*0x9E3779B185EBCA87 ^ bits.RotateLeft64(b*0xC2B2AE3D27D4EB4F, 31)
	return h ^ h>>29
}

// makeDelta returns the operations that turn base into target.
func makeDelta(base, target []byte) []byte {
	out := make([]byte, 0, 64)
	if len(base) < deltaBlock || len(target) < deltaBlock {
		return appendInsert(out, target)
	}
	n := len(base) / deltaBlock
	size := 1 << bits.Len(uint(2*n))
	mask := uint64(size - 1)
	table := make([]int32, size)  // offset+1 of a base block; 0: empty
	for i := n - 1; i >= 0; i-- { // backwards: the first block wins a slot
		off := i * deltaBlock
		table[blockHash(base[off:])&mask] = int32(off + 1)
	}
	pending := 0 // start of the target bytes not yet emitted
	for i := 0; i+deltaBlock <= len(target); {
		c := int(table[blockHash(target[i:])&mask]) - 1
		if c < 0 || string(base[c:c+deltaBlock]) != string(target[i:i+deltaBlock]) {
			i++
			continue
		}
		s, t := c, i
		for s > 0 && t > pending && base[s-1] == target[t-1] {
			s--
			t--
		}
		e := i + deltaBlock
		e += commonPrefix(base[c+deltaBlock:], target[e:])
		out = appendInsert(out, target[pending:t])
		out = binary.AppendUvarint(out, uint64(e-t)<<1|opCopy)
		out = binary.AppendUvarint(out, uint64(s))
		pending, i = e, e
	}
	return appendInsert(out, target[pending:])
}

// commonPrefix is the length of the common start of a and b, eight bytes
// at a time.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

func appendInsert(out, data []byte) []byte {
	if len(data) == 0 {
		return out
	}
	out = binary.AppendUvarint(out, uint64(len(data))<<1|opInsert)
	return append(out, data...)
}

// applyDelta rebuilds the target of size bytes from base and the operations
// of makeDelta. Malformed operations are ErrCorrupt, never a panic.
func applyDelta(base, delta []byte, size int) ([]byte, error) {
	if size < 0 {
		return nil, ErrCorrupt
	}
	out := make([]byte, 0, size)
	for len(delta) > 0 {
		v, k := binary.Uvarint(delta)
		if k <= 0 {
			return nil, ErrCorrupt
		}
		delta = delta[k:]
		n := v >> 1
		if n > uint64(size-len(out)) {
			return nil, ErrCorrupt
		}
		if v&1 == opInsert {
			if n > uint64(len(delta)) {
				return nil, ErrCorrupt
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
			continue
		}
		off, k := binary.Uvarint(delta)
		if k <= 0 || off > uint64(len(base)) || n > uint64(len(base))-off {
			return nil, ErrCorrupt
		}
		delta = delta[k:]
		out = append(out, base[off:off+n]...)
	}
	if len(out) != size {
		return nil, ErrCorrupt
	}
	return out, nil
}
