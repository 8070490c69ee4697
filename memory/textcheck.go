package memory

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// highs is the high bit of every byte of a word.
const highs = 0x8080808080808080

// checkText is normalize's check of a topic file's bytes: ErrBinary if p
// holds a NUL byte, else ErrInvalidUTF8 if p is not valid UTF-8, else
// whether p holds a CR: what bytes.IndexByte(p, 0), utf8.Valid(p) and
// bytes.IndexByte(p, '\r') give together (TestPropCheckTextEqualsRef,
// FuzzCheckText). The two byte searches stay separate passes: they are
// vector code that reads 32 bytes an instruction or two, and folding them
// into the UTF-8 loop cost English text 3.5 times the instructions
// (decision 0226).
func checkText(p []byte) (cr bool, err error) {
	if bytes.IndexByte(p, 0) >= 0 {
		return false, ErrBinary
	}
	if !validUTF8(p) {
		return false, ErrInvalidUTF8
	}
	return bytes.IndexByte(p, '\r') >= 0, nil
}

// validUTF8 is utf8.Valid, faster on the text topic files hold: it reads a
// word of eight bytes at a time and, by the class of its first byte (ASCII,
// a three- or four-byte lead, other), takes from that word a stretch of
// ASCII up to its first other byte, two three-byte sequences (CJK, kana,
// Hangul) or one, four two-byte sequences (Latin-1, Cyrillic) or one, each
// in one step with a few mask tests; anything else, and the last seven bytes, by
// utf8.DecodeRune. utf8.Valid takes a code point after a table lookup and
// a range test per byte, and after the first non-ASCII byte reads ASCII
// one byte at a time.
//
// A three-byte sequence is valid when its lead is E0–EF, the two bytes
// after it are 80–BF, and it is not E0 80–9F (overlong) or ED A0–BF (a
// surrogate): in the word, masking the lead's low nibble and bit 5 of the
// second byte (0x200F) gives 0 for the first and 0x200D for the second.
func validUTF8(p []byte) bool {
	p = p[:len(p):len(p)]
	i, n := 0, len(p)
	for i+8 <= n {
		v := binary.LittleEndian.Uint64(p[i : i+8])
		switch c := byte(v); {
		case c < utf8.RuneSelf:
			if v&highs != 0 {
				// ASCII up to the word's first other byte, and in the
				// same turn the one or two three-byte sequences that
				// usually start there in mixed text (decision 0230).
				i += bits.TrailingZeros64(v&highs) >> 3
				if i+8 <= n {
					i += threeByteStep(binary.LittleEndian.Uint64(p[i : i+8]))
				}
				continue
			}
			// The next word first: in mixed text the next
			// non-ASCII byte is usually there (decision 0230).
			q := p[i+8:]
			if len(q) >= 8 {
				if w := binary.LittleEndian.Uint64(q) & highs; w != 0 {
					i += 8 + bits.TrailingZeros64(w)>>3
					continue
				}
				q = q[8:]
			}
			// A run of ASCII, 32 bytes a step as utf8.Valid reads it.
			// (len(q) > 32, not >= 32, and a capacity equal to the
			// length spare q = q[32:] the fix-up for an empty result.)
			for len(q) > 32 && (binary.LittleEndian.Uint64(q)|binary.LittleEndian.Uint64(q[8:])|
				binary.LittleEndian.Uint64(q[16:])|binary.LittleEndian.Uint64(q[24:]))&highs == 0 {
				q = q[32:]
			}
			i = n - len(q)
			continue
		case c >= 0xE0:
			if step := threeByteStep(v); step != 0 {
				i += step
				// A run of them (kana, kanji, Hangul): four sequences
				// a step, from two overlapping words. Only after a pair
				// and where the next sequence's lead (v's seventh byte)
				// and the fourth's are three-byte leads: mixed text's
				// runs of two or three code points would pay the step's
				// loads and fail it.
				if step == 6 && v>>48&0xF0 == 0xE0 && i+14 <= n && p[i+9]&0xF0 == 0xE0 {
					i = threeByteRun(p, i)
				}
				continue
			}
		default:
			if v&0xC0E0C0E0C0E0C0E0 == 0x80C080C080C080C0 {
				// Four two-byte sequences; valid if no lead is C0 or C1,
				// that is if each 16-bit lane of v&0x001E… is nonzero
				// (adding 0x7FFF to a lane of at most 0x1E sets its top
				// bit exactly when the lane is nonzero, with no carry out).
				if (v&0x001E001E001E001E+0x7FFF7FFF7FFF7FFF)&0x8000800080008000 == 0x8000800080008000 {
					i += 8
					continue
				}
			}
			if v&0xC0E0 == 0x80C0 && c >= 0xC2 {
				i += 2
				continue
			}
		}
		_, size := utf8.DecodeRune(p[i:])
		if size == 1 {
			return false
		}
		i += size
	}
	for i < n {
		if p[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRune(p[i:])
		if size == 1 {
			return false
		}
		i += size
	}
	return true
}

// threeByteStep returns how many bytes at the start of v (eight bytes of
// validUTF8's input) are valid three-byte sequences it takes in one step:
// 6 for two, 3 for one, 0 when the first is not one.
func threeByteStep(v uint64) int {
	if v&0xC0C0F0C0C0F0 == 0x8080E08080E0 {
		if k1, k2 := v&0x200F, v>>24&0x200F; k1 != 0 && k1 != 0x200D && k2 != 0 && k2 != 0x200D {
			return 6
		}
	}
	if v&0xC0C0F0 == 0x8080E0 {
		if k := v & 0x200F; k != 0 && k != 0x200D {
			return 3
		}
	}
	return 0
}

// threeByteRun returns the end of the run of three-byte sequences of p
// from i that it can take four at a time (twelve bytes, read as two
// overlapping words), where validUTF8's loop goes on. It takes only
// sequences whose lead is E1–EC or EE–EF, valid whatever their
// continuation bytes are: a lead of E0 or ED, any other byte, or fewer
// than fourteen bytes left stop it, and validUTF8 decides there as before
// (decision 0229). The leads' low nibbles are gathered into four byte
// lanes, and a lane's high bit is set by adding 0x7F exactly when the lane
// is nonzero (no lane exceeds 0x0F, so no carry crosses lanes); the lane
// XORed with 0x0D tests "not ED" the same way. It is not inlined: in
// validUTF8's loop its state cost the other steps registers, and mixed
// text, which rarely enters it, more instructions than it saved.
//
//go:noinline
func threeByteRun(p []byte, i int) int {
	const (
		shape = 0xC0C0F0C0C0F0 // two three-byte sequences: 1110xxxx 10xxxxxx 10xxxxxx
		want  = 0x8080E08080E0
		add   = 0x7F7F007F7F // the four lanes: bytes 0, 1, 3 and 4
		top   = 0x8080008080
		ed    = 0x0D0D000D0D
	)
	for ; i+14 <= len(p); i += 12 {
		v := binary.LittleEndian.Uint64(p[i : i+8])
		w := binary.LittleEndian.Uint64(p[i+6 : i+14])
		if v&shape != want || w&shape != want {
			break
		}
		k := v&0x0F00000F | (w&0x0F00000F)<<8
		if (k+add)&((k^ed)+add)&top != top {
			break
		}
	}
	return i
}
