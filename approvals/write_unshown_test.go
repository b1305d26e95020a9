package approvals

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// A write whose content a card cannot show as text — input Sentinel cannot
// read as a write, not UTF-8, binary, too large — gets a summary: why, its
// size and hash, a hexdump of its head, all of it ASCII; a readable
// change gets none.
func TestUnshownSummarisesWhatACardCannotShowAsText(t *testing.T) {
	write := func(content string) Request {
		in, _ := json.Marshal(map[string]string{"file_path": "/w/f", "content": content})
		return Request{Kind: policy.KindWrite, Path: "/w/f", Input: in}
	}
	notUTF8 := Request{Kind: policy.KindWrite, Path: "/w/f", Input: []byte("{\"file_path\":\"/w/f\",\"content\":\"a\xff\xfeb\"}")}
	cases := []struct {
		name   string
		r      Request
		reason string
	}{
		{"unreadable input", Request{Kind: policy.KindWrite, Path: "/w/f", Input: []byte("\x00\x01not json")}, "not a write Sentinel can read"},
		{"not UTF-8", notUTF8, "not UTF-8"},
		{"binary", write("\x7fELF\x02\x01\x01\x00\x00rest"), "binary"},
		{"too large", write(strings.Repeat("x", MaxShownContent+1)), "larger than a card shows"},
	}
	for _, c := range cases {
		u, ok := UnshownOf(c.r)
		if !ok || !strings.Contains(u.Reason, c.reason) || u.Size == 0 || len(u.SHA256) != 64 {
			t.Errorf("%s: UnshownOf = %+v, %v; want a summary saying %q", c.name, u.Reason, ok, c.reason)
			continue
		}
		lines := u.Lines()
		if !strings.Contains(lines[2], u.SHA256) || !strings.HasPrefix(lines[3], "00000000  ") {
			t.Errorf("%s: the summary does not give the hash and a hexdump:\n%s", c.name, strings.Join(lines, "\n"))
		}
		for _, l := range lines {
			for _, b := range []byte(l) {
				if b < 0x20 || b >= 0x7f {
					t.Fatalf("%s: summary line %q holds byte %#x, not printable ASCII", c.name, l, b)
				}
			}
		}
	}
	if u, ok := UnshownOf(write("hello\n")); ok {
		t.Errorf("a readable write gets a summary: %+v", u)
	}
	if _, ok := UnshownOf(Request{Kind: policy.KindShell, Command: "ls"}); ok {
		t.Errorf("a command gets a summary")
	}
}
