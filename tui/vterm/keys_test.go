package vterm

import (
	"strings"
	"testing"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
)

// Keys are encoded as x/vt encodes them, in every cursor and keypad mode,
// with and without modifiers; pastes are bracketed when the coder asks.
//
// Exceptions, where x/vt is wrong:
//   - a key with no encoding (F13, Caps Lock, a media key) sends nothing
//     here; x/vt sends U+FFFD. With alt, it sends nothing here; x/vt sends a
//     lone ESC, an Escape press to the coder.
//   - keypad divide sends "/" (ESC O o in application keypad mode) as xterm
//     does; x/vt sends U+FFFD.
//   - an auto-repeated key is encoded as the key is; x/vt sends U+FFFD for a
//     repeated arrow or function key.
//   - alt+keypad 8 in numeric keypad mode sends ESC 8 here; x/vt drops the
//     ESC for that one key.
func TestKeysEncodeAsXVT(t *testing.T) {
	var codes []rune
	for r := rune(0); r < 0x80; r++ {
		codes = append(codes, r)
	}
	codes = append(codes, 'é', '中', uv.KeyUp, uv.KeyDown, uv.KeyLeft, uv.KeyRight, uv.KeyInsert, uv.KeyDelete,
		uv.KeyHome, uv.KeyEnd, uv.KeyPgUp, uv.KeyPgDown, uv.KeyEnter, uv.KeyTab, uv.KeyBackspace, uv.KeyEscape, uv.KeySpace)
	for k := uv.KeyF1; k <= uv.KeyF12; k++ {
		codes = append(codes, k)
	}
	for k := uv.KeyKpEnter; k <= uv.KeyKp9; k++ {
		codes = append(codes, k)
	}
	for _, modes := range []string{"", "\x1b[?1h", "\x1b=", "\x1b[?1h\x1b="} {
		p := newPair(t, 10, 2)
		p.write([]byte(modes))
		p.ours.Replies()
		p.vt.replies()
		for _, code := range codes {
			for _, mod := range []uv.KeyMod{0, uv.ModShift, uv.ModAlt, uv.ModCtrl, uv.ModCtrl | uv.ModAlt, uv.ModShift | uv.ModAlt} {
				for _, text := range []string{"", string(code)} {
					if code > 0x10ffff && text != "" || code == uv.KeyKp8 && mod&uv.ModAlt != 0 && modes != "\x1b=" && modes != "\x1b[?1h\x1b=" {
						continue
					}
					k := uv.Key{Code: code, Mod: mod, Text: text}
					p.ours.SendKey(k)
					p.vt.emu.SendKey(uv.KeyPressEvent(k))
					got, want := string(p.ours.Replies()), string(p.vt.replies())
					if code == uv.KeyKpDivide || xvtHasNoEncoding(want, mod) {
						continue // checked in TestKeysXVTGetsWrong
					}
					if got != want {
						t.Errorf("modes %q, key %+v: sent %q, x/vt %q", modes, k, got, want)
					}
				}
			}
		}
	}
}

// xvtHasNoEncoding reports whether x/vt's encoding of a key is the one it
// gives keys it has none for: U+FFFD, or a lone ESC for one with alt.
func xvtHasNoEncoding(sent string, mod uv.KeyMod) bool {
	return strings.ContainsRune(sent, utf8.RuneError) || sent == "\x1b" && mod&uv.ModAlt != 0
}

// The exceptions above, checked against what an xterm sends.
func TestKeysXVTGetsWrong(t *testing.T) {
	term := New(10, 2)
	for _, c := range []struct {
		k    uv.Key
		want string
	}{
		{uv.Key{Code: uv.KeyF13}, ""},
		{uv.Key{Code: uv.KeyCapsLock}, ""},
		{uv.Key{Code: uv.KeyUp, IsRepeat: true}, "\x1b[A"},
		{uv.Key{Code: uv.KeyKp8, Mod: uv.ModAlt}, "\x1b8"},
		{uv.Key{Code: uv.KeyF13, Mod: uv.ModAlt}, ""},
		{uv.Key{Code: 'x', Mod: uv.ModCtrl | uv.ModShift | uv.ModAlt}, ""},
		{uv.Key{Code: uv.KeyKpDivide}, "/"},
	} {
		term.SendKey(c.k)
		if got := string(term.Replies()); got != c.want {
			t.Errorf("key %+v: sent %q, want %q", c.k, got, c.want)
		}
	}
}

// A paste is bracketed once the coder turns bracketed paste on, as x/vt
// brackets it.
func TestPasteMatchesXVT(t *testing.T) {
	for _, modes := range []string{"", "\x1b[?2004h", "\x1b[?2004h\x1b[?2004l"} {
		p := newPair(t, 10, 2)
		p.write([]byte(modes))
		p.ours.Replies()
		p.vt.replies()
		p.ours.Paste("a\nb")
		p.vt.emu.Paste("a\nb")
		if got, want := string(p.ours.Replies()), string(p.vt.replies()); got != want {
			t.Errorf("modes %q: paste sent %q, x/vt %q", modes, got, want)
		}
	}
}
