package gitdir

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// A reftable repository (git init --ref-format=reftable, git 2.45 on)
// keeps its refs and reflogs not as files under refs/ and packed-refs but
// in the tables that reftable/tables.list names, oldest first; a newer
// table's record overrides an older one's, a deletion record removes it.
// The format is git's Documentation/technical/reftable.adoc. It is read
// here rather than asked of git, so that no git runs on the person's
// repository and a git too old for reftable (Debian 12's 2.39) still sees
// every ref: a replace ref written there included.

// maxTableBytes bounds one table read whole; maxTables the stack.
const (
	maxTableBytes = 256 << 20
	maxTables     = 1000
)

// The stack is the coder's to write in place: a thousand tables of
// compressible log blocks would have the reader read and inflate for as
// long as the coder likes, and the end of the run wait on it. A read of
// one stack stops at these (a tableBudget), with an error that says so.
const (
	maxStackBytes   = 512 << 20 // every table of the stack, read whole
	maxInflateBytes = 256 << 20 // every log block of the stack, inflated
)

// tableBudget is what reading one stack may still cost, in bytes.
type tableBudget struct {
	read, inflate int64
}

func newTableBudget() *tableBudget {
	return &tableBudget{read: maxStackBytes, inflate: maxInflateBytes}
}

// errTooBig is a stack over its budget.
var errTooBig = errors.New("the reftable stack is larger than Sentinel reads")

// errReftable says a table is not one this reader knows.
var errReftable = errors.New("not a reftable file this reader knows")

// IsReftable says whether the common dir common keeps its refs in
// reftable: what its config's extensions.refStorage says, as git decides
// (the config is the person's, read-only in place). A reftable/tables.list
// alone is not: the coder can write one into a files repository's git dir
// (its top level is writable in place), and read as the refs it hid every
// ref git reads from packed-refs, a replace ref among them.
func IsReftable(common string) bool {
	b, err := readSmallN(filepath.Join(common, "config"), 1<<20)
	if err != nil || !strings.EqualFold(refStorage(b), "reftable") {
		return false
	}
	_, err = readSmall(filepath.Join(common, "reftable", "tables.list"))
	return err == nil
}

// refStorage is the value of extensions.refStorage in the config text b
// (the last one set wins, as in git); "" when unset. Repository format
// extensions are read from the repository's config file alone, never from
// an included file, so includes are not followed.
func refStorage(b []byte) string {
	section, val := "", ""
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				section = ""
				continue
			}
			section = strings.ToLower(strings.TrimSpace(line[1:end]))
			line = strings.TrimSpace(line[end+1:]) // [extensions] refStorage = x
		}
		if section != "extensions" || line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "refstorage") {
			continue
		}
		v = strings.TrimSpace(v)
		if q, ok := strings.CutPrefix(v, "\""); ok {
			v, _, _ = strings.Cut(q, "\"")
		} else if i := strings.IndexAny(v, "#;"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		val = v
	}
	return val
}

// reftableStack reads the stack in dir (a git dir's reftable/): every ref,
// name → object id or "ref: target", and how many reflog entries each of
// logsOf has.
func reftableStack(dir string, bud *tableBudget, logsOf ...string) (refs map[string]string, logs map[string]int, err error) {
	list, err := readSmall(filepath.Join(dir, "tables.list"))
	if err != nil {
		return nil, nil, err
	}
	refs, logs = map[string]string{}, map[string]int{}
	names := strings.Fields(string(list))
	if len(names) > maxTables {
		return nil, nil, fmt.Errorf("%s: %d tables, more than %d", dir, len(names), maxTables)
	}
	for _, n := range names {
		if strings.ContainsAny(n, `/\`) || n == ".." || n == "." {
			return nil, nil, fmt.Errorf("%s: tables.list names %q", dir, n)
		}
		limit := min(maxTableBytes, bud.read)
		b, err := readSmallN(filepath.Join(dir, n), limit+1)
		if err != nil {
			return nil, nil, err
		}
		if int64(len(b)) > limit {
			return nil, nil, fmt.Errorf("%s: %w (a table of more than %d bytes, or more than %d bytes of tables)", filepath.Join(dir, n), errTooBig, maxTableBytes, maxStackBytes)
		}
		bud.read -= int64(len(b))
		if err := readTable(b, refs, logs, logsOf, bud); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", filepath.Join(dir, n), err)
		}
	}
	return refs, logs, nil
}

// readTable applies one table's ref records to refs (a deletion removes)
// and counts, into logs, the reflog entries of the names in logsOf.
// Its log blocks are inflated within bud.
func readTable(b []byte, refs map[string]string, logs map[string]int, logsOf []string, bud *tableBudget) error {
	if len(b) < 24 || string(b[:4]) != "REFT" {
		return errReftable
	}
	hdr, hashLen := 24, 20
	switch b[4] {
	case 1:
	case 2:
		hdr = 28
		if len(b) < hdr {
			return errReftable
		}
		switch string(b[24:28]) {
		case "sha1":
		case "s256":
			hashLen = 32
		default:
			return errReftable
		}
	default:
		return errReftable
	}
	blockSize := int(b[5])<<16 | int(b[6])<<8 | int(b[7])
	end := len(b) - (hdr + 44) // the footer: the header again, 5 positions, a CRC
	if end < hdr {
		return errReftable
	}
	pos := 0
	for pos < end {
		off := 0
		if pos == 0 {
			off = hdr
		}
		if pos+off+4 > end {
			break
		}
		typ := b[pos+off]
		blen := int(b[pos+off+1])<<16 | int(b[pos+off+2])<<8 | int(b[pos+off+3])
		switch typ {
		case 'r':
			if blen < off+6 || pos+blen > end {
				return fmt.Errorf("%w: ref block at %d runs past the end", errReftable, pos)
			}
			if err := refBlock(b[pos:pos+blen], off+4, hashLen, refs); err != nil {
				return err
			}
			pos += blen
		case 'g':
			n, err := logBlock(b[pos:end], off, blen, hashLen, logs, logsOf, bud)
			if err != nil {
				return err
			}
			pos += n
			continue
		case 'i', 'o':
			if blen < off+4 || pos+blen > end {
				return fmt.Errorf("%w: block at %d runs past the end", errReftable, pos)
			}
			pos += blen
		case 0:
			if blockSize == 0 {
				return fmt.Errorf("%w: zero byte at %d in an unaligned table", errReftable, pos)
			}
			// Padding to the next block. The first block's type is after
			// the header, so its padding is not at pos: a zero there
			// left pos where it was, and the loop never ended.
			pos = (pos/blockSize + 1) * blockSize
			continue
		default:
			return fmt.Errorf("%w: block type %q at %d", errReftable, typ, pos)
		}
		// Aligned tables pad ref, index and obj blocks to the block size.
		if blockSize > 0 && pos < end && b[pos] == 0 {
			pos = (pos/blockSize + 1) * blockSize
		}
	}
	return nil
}

// refBlock applies the records of one ref block blk (from its start, the
// file's header included for the first) whose records begin at start.
func refBlock(blk []byte, start, hashLen int, refs map[string]string) error {
	n := len(blk)
	restarts := int(binary.BigEndian.Uint16(blk[n-2:]))
	stop := n - 2 - 3*restarts
	if restarts == 0 || stop < start {
		return fmt.Errorf("%w: ref block restart table", errReftable)
	}
	var name []byte
	p := start
	for p < stop {
		prefix, k := varint(blk[p:stop])
		if k <= 0 {
			return fmt.Errorf("%w: ref record", errReftable)
		}
		p += k
		sv, k := varint(blk[p:stop])
		if k <= 0 || prefix > uint64(len(name)) {
			return fmt.Errorf("%w: ref record", errReftable)
		}
		p += k
		suffix, vt := int(sv>>3), sv&7
		if suffix < 0 || p+suffix > stop {
			return fmt.Errorf("%w: ref name runs past its block", errReftable)
		}
		name = append(name[:prefix:prefix], blk[p:p+suffix]...)
		p += suffix
		if _, k = varint(blk[p:stop]); k <= 0 { // update_index_delta
			return fmt.Errorf("%w: ref record", errReftable)
		}
		p += k
		ref := string(name)
		switch vt {
		case 0:
			delete(refs, ref)
		case 1, 2:
			need := hashLen * int(vt)
			if p+need > stop {
				return fmt.Errorf("%w: ref value runs past its block", errReftable)
			}
			refs[ref] = fmt.Sprintf("%x", blk[p:p+hashLen])
			p += need
		case 3:
			l, k := varint(blk[p:stop])
			if k <= 0 || l > uint64(stop) || p+k+int(l) > stop {
				return fmt.Errorf("%w: symbolic ref runs past its block", errReftable)
			}
			p += k
			refs[ref] = "ref: " + string(blk[p:p+int(l)])
			p += int(l)
		default:
			return fmt.Errorf("%w: ref value type %d", errReftable, vt)
		}
	}
	return nil
}

// logBlock reads the log block at the start of b (its header off bytes
// in, blen its length uncompressed) and returns how many bytes of b it
// took. Log records are keyed refname, 0, reversed update index. What it
// inflates is taken from bud.inflate; a block that would inflate past it
// is not inflated.
func logBlock(b []byte, off, blen, hashLen int, logs map[string]int, logsOf []string, bud *tableBudget) (int, error) {
	if blen < off+4+2 || blen > maxTableBytes {
		return 0, fmt.Errorf("%w: log block length", errReftable)
	}
	if int64(blen-off-4) > bud.inflate {
		return 0, fmt.Errorf("%w (its log blocks inflate to more than %d bytes)", errTooBig, maxInflateBytes)
	}
	bud.inflate -= int64(blen - off - 4)
	r := bytes.NewReader(b[off+4:])
	z, err := zlib.NewReader(r)
	if err != nil {
		return 0, fmt.Errorf("%w: log block: %v", errReftable, err)
	}
	body := make([]byte, blen-off-4)
	if _, err := io.ReadFull(z, body); err != nil {
		return 0, fmt.Errorf("%w: log block: %v", errReftable, err)
	}
	if _, err := z.Read(make([]byte, 1)); err != io.EOF {
		return 0, fmt.Errorf("%w: log block longer than it says", errReftable)
	}
	used := off + 4 + (len(b) - off - 4 - r.Len())
	if len(logsOf) == 0 {
		return used, nil
	}
	n := len(body)
	restarts := int(binary.BigEndian.Uint16(body[n-2:]))
	stop := n - 2 - 3*restarts
	if restarts == 0 || stop < 0 {
		return 0, fmt.Errorf("%w: log block restart table", errReftable)
	}
	var key []byte
	p := 0
	for p < stop {
		prefix, k := varint(body[p:stop])
		if k <= 0 {
			return 0, fmt.Errorf("%w: log record", errReftable)
		}
		p += k
		sv, k := varint(body[p:stop])
		if k <= 0 || prefix > uint64(len(key)) {
			return 0, fmt.Errorf("%w: log record", errReftable)
		}
		p += k
		suffix, vt := int(sv>>3), sv&7
		if suffix < 0 || p+suffix > stop {
			return 0, fmt.Errorf("%w: log key runs past its block", errReftable)
		}
		key = append(key[:prefix:prefix], body[p:p+suffix]...)
		p += suffix
		ref, _, _ := bytes.Cut(key, []byte{0})
		if vt == 1 {
			for _, w := range logsOf {
				if string(ref) == w {
					logs[w]++
				}
			}
		}
		// The value: none for a deletion (0); for an update (1) two ids,
		// name, email, time, tz offset and message.
		if vt == 0 {
			continue
		}
		if vt != 1 {
			return 0, fmt.Errorf("%w: log value type %d", errReftable, vt)
		}
		p += 2 * hashLen         // old and new id
		for i := 0; i < 2; i++ { // name, email
			l, k := varint(body[min(p, stop):stop])
			if k <= 0 || l > uint64(stop) {
				return 0, fmt.Errorf("%w: log record", errReftable)
			}
			p += k + int(l)
		}
		_, k = varint(body[min(p, stop):stop]) // time
		if k <= 0 {
			return 0, fmt.Errorf("%w: log record", errReftable)
		}
		p += k + 2                              // and the tz offset
		l, k := varint(body[min(p, stop):stop]) // message
		if k <= 0 || l > uint64(stop) {
			return 0, fmt.Errorf("%w: log record", errReftable)
		}
		p += k + int(l)
		if p > stop {
			return 0, fmt.Errorf("%w: log record runs past its block", errReftable)
		}
	}
	return used, nil
}

// varint is git's variable-length integer (each continuation adds one
// before shifting) and how many bytes it took; 0 when b ends first.
func varint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	v := uint64(b[0] & 0x7f)
	i := 0
	for b[i]&0x80 != 0 {
		i++
		if i >= len(b) || i > 9 {
			return 0, 0
		}
		v = ((v + 1) << 7) | uint64(b[i]&0x7f)
	}
	return v, i + 1
}
