package memory

import (
	"encoding/binary"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// decodeRecordsRef is the record loop decodeRecords had before decision
// 0840, through snapReader's methods, kept as the reference the faster
// loop is held to: the same records, the same extra data, and an error
// exactly where it gave one.
func decodeRecordsRef(data []byte, tag string, roots [2]string) ([]snapRecord, []byte, error) {
	head := len(snapshotMagic) + 4
	if len(data) < head || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return nil, nil, ErrSnapshotCorrupt
	}
	if snapshotSum(data[head:]) != binary.LittleEndian.Uint32(data[len(snapshotMagic):]) {
		return nil, nil, ErrSnapshotCorrupt
	}
	r := &snapReader{b: data[head:]}
	n, err := r.head(tag, roots)
	if err != nil {
		return nil, nil, err
	}
	if n > uint64(len(r.b)/minSnapRecord) {
		return nil, nil, ErrSnapshotCorrupt
	}
	recs := make([]snapRecord, n)
	for i := range int(n) {
		var rec snapRecord
		rec.scope = Scope(r.byte())
		kind := r.byte()
		flags := r.byte()
		rec.rel = r.str()
		rec.key.size = r.varint()
		rec.key.mtime = r.varint()
		rec.key.ctime = r.varint()
		rec.key.ino = r.uvarint()
		rec.key.dev = r.uvarint()
		rec.title, rec.desc, rec.body = r.str(), r.str(), r.str()
		if r.err != nil {
			return nil, nil, r.err
		}
		switch flags {
		case recSkipped:
			rec.skipped, rec.skip = true, SkipReason(kind)
		case recTruncated:
			rec.truncated, rec.typ = true, Type(kind)
		default:
			rec.typ = Type(kind)
		}
		if flags > recSkipped || !validSnapRecordRef(&rec, roots) {
			return nil, nil, ErrSnapshotCorrupt
		}
		recs[i] = rec
	}
	extra := r.bytes()
	if r.err != nil || len(r.b) != 0 {
		return nil, nil, ErrSnapshotCorrupt
	}
	return recs, extra, nil
}

// validSnapRecordRef is validSnapRecord as it was before decision 0841:
// the type checked by its name.
func validSnapRecordRef(rec *snapRecord, roots [2]string) bool {
	if rec.scope > ScopeUser || rec.key.size < 0 {
		return false
	}
	if rec.skipped {
		if rec.skip < SkipBinary || rec.skip >= numSkipReasons || rec.title != "" || rec.desc != "" || rec.body != "" {
			return false
		}
	} else if _, err := ParseType(rec.typ.String()); err != nil {
		return false
	}
	return roots[rec.scope] != "" && localClean(rec.rel)
}

// checkDecodeAsRef fails t unless decodeRecords accepts data exactly
// when decodeRecordsRef does, with the same error, records and extra data.
func checkDecodeAsRef(t interface{ Fatalf(string, ...any) }, data []byte, tag string, roots [2]string) {
	want, wantExtra, wantErr := decodeRecordsRef(data, tag, roots)
	var got []snapRecord
	gotExtra, gotErr := decodeRecords(data, tag, roots,
		func(n int) { got = make([]snapRecord, n) },
		func(i int, rec *snapRecord) { got[i] = *rec })
	if gotErr != wantErr {
		t.Fatalf("decodeRecords: error %v, the reference gives %v", gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	if string(gotExtra) != string(wantExtra) {
		t.Fatalf("extra data %q, the reference gives %q", gotExtra, wantExtra)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(snapRecord{}, fileKey{})); diff != "" {
		t.Fatalf("records differ from the reference's (-ref +got):\n%s", diff)
	}
}

// TestDecodeRecordsAsBefore: the record loop of decision 0841 accepts and
// decodes what the loop before it did, on rapid's snapshots (valid ones,
// then with a byte changed, bytes cut off or added, each with a checksum
// that matches, so that the records' own checks are what is tested),
// including strings of 127, 128 and more bytes (one- and two-byte
// lengths) and keys of every varint length.
func TestDecodeRecordsAsBefore(t *testing.T) {
	roots := [2]string{"/p", "/u"}
	str := rapid.OneOf(rapid.StringN(0, 3, -1), rapid.StringN(126, 130, -1), rapid.StringN(300, 400, -1))
	rel := rapid.OneOf(rapid.SampledFrom([]string{"a.md", "d/b.md", "d/e/c.md", "."}), rapid.SampledFrom([]string{"", "./a", "a//b", "..", "a/", "/a", "a/../b"}), rapid.StringN(0, 130, -1))
	// Mostly what a writer stores, sometimes what none does.
	scope := rapid.SampledFrom([]Scope{ScopeProject, ScopeProject, ScopeUser, 2})
	typ := rapid.SampledFrom([]Type{TypeUser, TypeFeedback, TypeProject, TypeReference, 0, 5})
	skip := rapid.SampledFrom([]SkipReason{SkipBinary, numSkipReasons - 1, 0, numSkipReasons})
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(0, 4).Draw(rt, "n")
		recs := make([]snapRecord, n)
		for i := range recs {
			r := &recs[i]
			r.scope = scope.Draw(rt, "scope")
			r.rel = rel.Draw(rt, "rel")
			r.key = fileKey{
				size:  rapid.Int64().Draw(rt, "size"),
				mtime: rapid.Int64().Draw(rt, "mtime"),
				ctime: rapid.Int64().Draw(rt, "ctime"),
				ino:   rapid.Uint64().Draw(rt, "ino"),
				dev:   rapid.Uint64().Draw(rt, "dev"),
			}
			switch rapid.IntRange(0, 2).Draw(rt, "kind") {
			case 0:
				r.typ = typ.Draw(rt, "typ")
				r.title, r.desc, r.body = str.Draw(rt, "title"), str.Draw(rt, "desc"), str.Draw(rt, "body")
			case 1:
				r.typ, r.truncated = typ.Draw(rt, "typ"), true
				r.body = str.Draw(rt, "body")
			default:
				r.skipped, r.skip = true, skip.Draw(rt, "skip")
			}
		}
		data := encodeSnapshot("v", roots, recs, []byte(rapid.StringN(0, 4, -1).Draw(rt, "extra")))
		head := len(snapshotMagic) + 4
		switch rapid.IntRange(0, 3).Draw(rt, "damage") {
		case 1:
			i := rapid.IntRange(head, len(data)-1).Draw(rt, "at")
			data[i] = rapid.Byte().Draw(rt, "byte")
		case 2:
			data = data[:rapid.IntRange(head, len(data)).Draw(rt, "cut")]
		case 3:
			data = append(data, rapid.SliceOfN(rapid.Byte(), 1, 4).Draw(rt, "more")...)
		}
		binary.LittleEndian.PutUint32(data[len(snapshotMagic):], snapshotSum(data[head:]))
		checkDecodeAsRef(rt, data, "v", roots)
	})
}

// TestKnownType: knownType is ParseType of the type's name, for every
// value a snapshot's byte can hold.
func TestKnownType(t *testing.T) {
	for v := range 256 {
		_, err := ParseType(Type(v).String())
		if got := knownType(Type(v)); got != (err == nil) {
			t.Errorf("knownType(%d) = %v, ParseType of its name gives error %v", v, got, err)
		}
	}
}
