package approvals

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sentinelhq/sentinel/policy"
)

// MaxShownContent is the most a card shows of a write's or edit's content
// as text; a larger one is shown as an Unshown summary.
const MaxShownContent = 1 << 20

// unshownHead is how many bytes of an unshown content a summary dumps.
const unshownHead = 128

// Unshown is what a card shows of a write or edit whose content it cannot
// show as text: why, its size and hash, and a hexdump of its head. A card
// holds its approve until the person has been shown all of this, as it
// does a readable change's last row; the queue's --seen hash (SeenOf) is
// the same for both.
type Unshown struct {
	Reason string // why the content is not shown as text
	Size   int    // bytes
	SHA256 string // of the content's bytes, hex
	Head   []byte // the first unshownHead bytes
}

// UnshownOf is r's summary when r is a write or edit whose content cannot
// be shown as text: input Sentinel cannot read as a write, content that is
// not UTF-8 or holds NUL bytes (binary), or more than MaxShownContent
// bytes. ok is false for any other request, and for a readable change.
func UnshownOf(r Request) (u Unshown, ok bool) {
	if r.Kind != policy.KindWrite && r.Kind != policy.KindEdit || len(r.Input) == 0 {
		return u, false
	}
	in, readable := WriteInputOf(r)
	var data []byte
	if readable {
		for _, e := range in.Replacements() {
			data = append(data, e.Old...)
			data = append(data, e.New...)
		}
	}
	switch {
	case !readable:
		data, u.Reason = r.Input, "its input is not a write Sentinel can read; the dump is of the input as sent"
	case !utf8.Valid(r.Input):
		u.Reason = "its content is not UTF-8 text (the bytes that are not are dumped as ef bf bd)"
	case strings.IndexByte(string(data), 0) >= 0:
		u.Reason = "its content is binary (it holds NUL bytes)"
	case len(data) > MaxShownContent:
		u.Reason = fmt.Sprintf("its content is larger than a card shows (%d MiB)", MaxShownContent>>20)
	default:
		return u, false
	}
	sum := sha256.Sum256(data)
	u.Size, u.SHA256 = len(data), hex.EncodeToString(sum[:])
	u.Head = data[:min(len(data), unshownHead)]
	return u, true
}

// Lines is the summary as a card prints it, every byte of it ASCII: the
// reason, the size and hash, then a hexdump of the head (offset, 8 bytes
// in hex, the printable ones as text: a row fits a 60-column card).
func (u Unshown) Lines() []string {
	out := []string{
		"not shown in full: " + u.Reason,
		fmt.Sprintf("size: %d bytes", u.Size),
		"sha256: " + u.SHA256,
	}
	for off := 0; off < len(u.Head); off += 8 {
		row := u.Head[off:min(off+8, len(u.Head))]
		var hx, txt strings.Builder
		for i := 0; i < 8; i++ {
			if i < len(row) {
				fmt.Fprintf(&hx, "%02x ", row[i])
				if row[i] >= 0x20 && row[i] < 0x7f {
					txt.WriteByte(row[i])
				} else {
					txt.WriteByte('.')
				}
			} else {
				hx.WriteString("   ")
			}
		}
		out = append(out, fmt.Sprintf("%08x  %s |%s|", off, hx.String(), txt.String()))
	}
	if rest := u.Size - len(u.Head); rest > 0 {
		out = append(out, fmt.Sprintf("... %d more byte(s) not dumped: review the file before it lands", rest))
	}
	return out
}
