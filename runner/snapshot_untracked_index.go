package runner

// Reading the private index back after git wrote it, to decide whether it
// may be trusted next time (snapshot_untracked.go says why): every stat
// record in it (each entry's, and the untracked cache's for info/exclude,
// core.excludesFile and every directory) gives its ctime in whole seconds,
// and a record whose ctime is not older than the scan that wrote it could
// be matched again by a change made in that same second.
//
// The format is git's Documentation/technical/index-format.txt: versions
// 2 and 3 (the private index is written as one of them), then extensions;
// "UNTR" is the untracked cache, its directories' stat data an array
// after three EWAH bitmaps. Anything the reader does not expect is an
// error, and an error means the index is not trusted.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// statRecordLen is git's on-disk stat data: ctime, mtime (seconds and
// nanoseconds each), dev, ino, uid, gid, size, 4 bytes each.
const statRecordLen = 36

// indexStats is what the private index holds of interest here.
type indexStats struct {
	newest    int64 // the newest ctime (seconds) of any stat record
	entries   int   // index entries
	cacheDirs int   // directories whose untracked cache is valid
	hasCache  bool  // an UNTR extension is there
}

// readIndexStats reads an index file's stat records. hashLen is the
// repository's object id length in bytes (20 or 32).
func readIndexStats(data []byte, hashLen int) (indexStats, error) {
	var s indexStats
	if len(data) < 12+hashLen || string(data[:4]) != "DIRC" {
		return s, errors.New("not an index file")
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version != 2 && version != 3 {
		return s, fmt.Errorf("index version %d", version)
	}
	n := int(binary.BigEndian.Uint32(data[8:]))
	end := len(data) - hashLen // the trailing checksum
	off := 12
	fixed := 40 + hashLen + 2 // stat data (40 with the mode), object id, flags
	for i := 0; i < n; i++ {
		if off+fixed > end {
			return s, errors.New("index entries run past the end")
		}
		s.note(int64(binary.BigEndian.Uint32(data[off:])))
		flags := binary.BigEndian.Uint16(data[off+40+hashLen:])
		head := fixed
		if flags&0x4000 != 0 {
			if version < 3 {
				return s, errors.New("an extended entry in a version 2 index")
			}
			head += 2
		}
		nameLen := int(flags & 0xfff)
		if nameLen == 0xfff {
			i := bytes.IndexByte(data[off+head:end], 0)
			if i < 0 {
				return s, errors.New("an unterminated entry name")
			}
			nameLen = i
		}
		size := (head + nameLen + 8) &^ 7 // one to eight NULs pad it
		if off+size > end {
			return s, errors.New("an index entry runs past the end")
		}
		off += size
	}
	s.entries = n
	for off < end {
		if off+8 > end {
			return s, errors.New("a truncated extension")
		}
		sig, size := string(data[off:off+4]), int(binary.BigEndian.Uint32(data[off+4:]))
		off += 8
		if size > end-off {
			return s, fmt.Errorf("extension %q runs past the end", sig)
		}
		body := data[off : off+size]
		off += size
		switch {
		case sig == "UNTR":
			if err := s.readUntracked(body, hashLen); err != nil {
				return s, fmt.Errorf("untracked cache: %w", err)
			}
		case sig == "link":
			return s, errors.New("a split index")
		case sig[0] >= 'A' && sig[0] <= 'Z':
			// Optional extensions (TREE, REUC, EOIE, IEOT): no stat data.
		default:
			return s, fmt.Errorf("extension %q", sig)
		}
	}
	return s, nil
}

func (s *indexStats) note(ctime int64) {
	if ctime > s.newest {
		s.newest = ctime
	}
}

// readUntracked reads the UNTR extension (dir.c, write_untracked_extension).
func (s *indexStats) readUntracked(b []byte, hashLen int) error {
	s.hasCache = true
	r := &byteReader{b: b}
	identLen := r.varint()
	r.skip(int(identLen))
	for i := 0; i < 2; i++ { // info/exclude, core.excludesFile
		s.note(int64(r.u32()))
		r.skip(statRecordLen - 4)
	}
	r.skip(4 + 2*hashLen) // dir flags, the two files' object ids
	r.cstring()           // the per-directory exclude file name
	dirs := r.varint()
	if r.err != nil {
		return r.err
	}
	if dirs == 0 {
		return nil
	}
	if dirs > uint64(len(b)) {
		return errors.New("more directories than bytes")
	}
	for i := uint64(0); i < dirs && r.err == nil; i++ {
		untracked := r.varint()
		r.varint() // subdirectories: the blocks are in depth-first order
		r.cstring()
		if untracked > uint64(len(b)) {
			return errors.New("more names than bytes")
		}
		for j := uint64(0); j < untracked && r.err == nil; j++ {
			r.cstring()
		}
	}
	valid := r.ewahOnes()
	r.ewahOnes() // check_only
	hashed := r.ewahOnes()
	if r.err != nil {
		return r.err
	}
	if valid > int(dirs) || hashed > int(dirs) || len(r.b)-r.off != valid*statRecordLen+hashed*hashLen+1 {
		return errors.New("its sizes do not add up")
	}
	for i := 0; i < valid; i++ {
		s.note(int64(r.u32()))
		r.skip(statRecordLen - 4)
	}
	s.cacheDirs = valid
	return r.err
}

// byteReader reads git's encodings; the first error sticks.
type byteReader struct {
	b   []byte
	off int
	err error
}

func (r *byteReader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.off {
		if r.err == nil {
			r.err = errors.New("truncated")
		}
		return nil
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

func (r *byteReader) skip(n int) { r.take(n) }

func (r *byteReader) u32() uint32 {
	if p := r.take(4); p != nil {
		return binary.BigEndian.Uint32(p)
	}
	return 0
}

func (r *byteReader) u64() uint64 {
	if p := r.take(8); p != nil {
		return binary.BigEndian.Uint64(p)
	}
	return 0
}

// varint is git's varint.c encoding (offset binary, most significant
// group first).
func (r *byteReader) varint() uint64 {
	p := r.take(1)
	if p == nil {
		return 0
	}
	c := p[0]
	v := uint64(c & 127)
	for c&128 != 0 {
		v++
		if v >= 1<<56 {
			r.err = errors.New("a varint overflows")
			return 0
		}
		if p = r.take(1); p == nil {
			return 0
		}
		c = p[0]
		v = v<<7 + uint64(c&127)
	}
	return v
}

func (r *byteReader) cstring() {
	if r.err != nil {
		return
	}
	i := bytes.IndexByte(r.b[r.off:], 0)
	if i < 0 {
		r.err = errors.New("an unterminated name")
		return
	}
	r.off += i + 1
}

// ewahOnes reads one serialized EWAH bitmap (ewah/ewah_io.c: bit count,
// word count, the words, the last run-length word's position) and
// returns how many bits are set.
func (r *byteReader) ewahOnes() int {
	r.u32() // bits
	words := int(r.u32())
	if r.err != nil || words > (len(r.b)-r.off)/8 {
		if r.err == nil {
			r.err = errors.New("an EWAH bitmap runs past the end")
		}
		return 0
	}
	w := make([]uint64, words)
	for i := range w {
		w[i] = r.u64()
	}
	r.u32() // the last run-length word's position
	ones := 0
	for i := 0; i < len(w); {
		rlw := w[i]
		run := int((rlw >> 1) & (1<<32 - 1))
		literals := int(rlw >> 33)
		if rlw&1 != 0 {
			ones += run * 64
		}
		if literals > len(w)-i-1 {
			r.err = errors.New("an EWAH run-length word overruns")
			return 0
		}
		for _, l := range w[i+1 : i+1+literals] {
			ones += bits.OnesCount64(l)
		}
		i += 1 + literals
	}
	return ones
}
