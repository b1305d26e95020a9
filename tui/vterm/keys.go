package vterm

import (
	"unicode"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// SendKey encodes a key press the way an xterm in the coder's modes would
// (application cursor keys, application keypad) and queues it for the
// coder (Replies). Alt prefixes ESC. A key with no encoding sends nothing.
func (t *Terminal) SendKey(k uv.Key) {
	prefix := ""
	if k.Mod&uv.ModAlt != 0 {
		prefix = "\x1b"
		k.Mod &^= uv.ModAlt
	}
	if k.Text == "" {
		if seq, ok := t.keySeq(k.Code, k.Mod); ok {
			t.input(prefix + seq)
			return
		}
	}
	switch {
	case k.Text != "" && k.Mod&uv.ModCtrl == 0:
		t.input(prefix + k.Text)
	case k.Text == "" && k.Mod == 0 && k.Code <= unicode.MaxRune:
		t.input(prefix + string(k.Code))
	}
}

// keySeq is the encoding of a key that carries no text.
func (t *Terminal) keySeq(code rune, mod uv.KeyMod) (string, bool) {
	switch mod {
	case uv.ModCtrl:
		switch {
		case code >= 'a' && code <= 'z':
			return string(code - 'a' + 1), true
		case code == uv.KeySpace:
			return "\x00", true
		case code >= '[' && code <= '_':
			return string(code - '[' + 0x1b), true
		}
		return "", false
	case uv.ModShift:
		if code == uv.KeyTab {
			return "\x1b[Z", true
		}
		return "", false
	case 0:
	default:
		return "", false
	}
	if seq, ok := plainKeys[code]; ok {
		return seq, true
	}
	if seq, ok := cursorKeys[code]; ok {
		if t.isSet(dec(ansi.ModeCursorKeys)) {
			return "\x1bO" + seq, true
		}
		return "\x1b[" + seq, true
	}
	if k, ok := keypadKeys[code]; ok {
		if t.isSet(dec(ansi.ModeNumericKeypad)) {
			return "\x1bO" + k.app, true
		}
		return k.numeric, true
	}
	return "", false
}

// plainKeys are the keys whose encoding no mode changes.
var plainKeys = map[rune]string{
	uv.KeyEnter: "\r", uv.KeyTab: "\t", uv.KeyBackspace: "\x7f", uv.KeyEscape: "\x1b",
	uv.KeyInsert: "\x1b[2~", uv.KeyDelete: "\x1b[3~", uv.KeyHome: "\x1b[H", uv.KeyEnd: "\x1b[F",
	uv.KeyPgUp: "\x1b[5~", uv.KeyPgDown: "\x1b[6~",
	uv.KeyF1: "\x1bOP", uv.KeyF2: "\x1bOQ", uv.KeyF3: "\x1bOR", uv.KeyF4: "\x1bOS",
	uv.KeyF5: "\x1b[15~", uv.KeyF6: "\x1b[17~", uv.KeyF7: "\x1b[18~", uv.KeyF8: "\x1b[19~",
	uv.KeyF9: "\x1b[20~", uv.KeyF10: "\x1b[21~", uv.KeyF11: "\x1b[23~", uv.KeyF12: "\x1b[24~",
}

// cursorKeys are the arrows: CSI in normal mode, SS3 in application cursor
// mode.
var cursorKeys = map[rune]string{uv.KeyUp: "A", uv.KeyDown: "B", uv.KeyRight: "C", uv.KeyLeft: "D"}

// keypadKeys are the keypad's keys: their character, or SS3 sequences in
// application keypad mode.
var keypadKeys = map[rune]struct{ numeric, app string }{
	uv.KeyKp0: {"0", "p"}, uv.KeyKp1: {"1", "q"}, uv.KeyKp2: {"2", "r"}, uv.KeyKp3: {"3", "s"},
	uv.KeyKp4: {"4", "t"}, uv.KeyKp5: {"5", "u"}, uv.KeyKp6: {"6", "v"}, uv.KeyKp7: {"7", "w"},
	uv.KeyKp8: {"8", "x"}, uv.KeyKp9: {"9", "y"}, uv.KeyKpEnter: {"\r", "M"}, uv.KeyKpEqual: {"=", "X"},
	uv.KeyKpMultiply: {"*", "j"}, uv.KeyKpPlus: {"+", "k"}, uv.KeyKpComma: {",", "l"},
	uv.KeyKpMinus: {"-", "m"}, uv.KeyKpDecimal: {".", "n"}, uv.KeyKpDivide: {"/", "o"},
}

// Paste queues pasted text for the coder, bracketed when the coder asked
// for bracketed paste.
func (t *Terminal) Paste(s string) {
	if t.isSet(dec(ansi.ModeBracketedPaste)) {
		t.input("\x1b[200~" + s + "\x1b[201~")
		return
	}
	t.input(s)
}

// SendText queues text for the coder as it is.
func (t *Terminal) SendText(s string) { t.input(s) }
