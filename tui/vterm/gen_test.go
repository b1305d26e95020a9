package vterm

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// genStream returns n pieces of random terminal output for a w×h screen:
// printable text (ASCII, accented, combining, wide, emoji, ZWJ sequences,
// flags), control characters and the escape sequences a full-screen coder
// uses, with their parameters drawn wide (0, defaults, past the screen).
func genStream(rng *rand.Rand, w, h, n int) []byte {
	var sb strings.Builder
	for range n {
		sb.WriteString(genPiece(rng, w, h))
	}
	return []byte(sb.String())
}

var texts = []string{
	"hello", "world ", "ok", " ", "  ", "a", "x", "0123456789", "#$", "{}~`|",
	"é", "e\u0301", "a\u0308\u0301", "中文", "日本語テキスト", "😀", "👍🏽", "👨‍👩‍👧", "🇫🇷", "❤️", "☺",
	"─│┌┐", "█▓▒░", "Ａ", "\u200b", "\u0301", "ﷺ", "🏳️‍🌈", "ｱ", "\ufeff", "ab\u0300", "\u1100\u1161\u11a8",
}

var controls = []string{"\r", "\n", "\r\n", "\t", "\b", "\x0b", "\x0c", "\x07", "\x0e", "\x0f", "\x00", "\x7f",
	"\u0084", "\u0085", "\u0088", "\u008d", "\u008e", "\u008f"}

// zeroCountFinals are the control sequences whose first parameter is a
// count or distance, 0 meaning 1 (x/vt: none).
const zeroCountFinals = "@ABCDEFILMPSTZabe"

var decModes = []int{1, 6, 7, 25, 47, 66, 69, 1000, 1004, 1006, 1047, 1048, 1049, 2004, 2026, 2027, 2048}

func genPiece(rng *rand.Rand, w, h int) string {
	num := func() string { return genNum(rng, w, h) }
	switch k := rng.IntN(100); {
	case k < 30:
		return texts[rng.IntN(len(texts))]
	case k < 38:
		return strings.Repeat(string(rune('!'+rng.IntN(94))), 1+rng.IntN(2*w))
	case k < 46:
		return controls[rng.IntN(len(controls))]
	case k < 60:
		final := "ABCDEFGHIJKLMPSTXZ`abdefg@"[rng.IntN(26)]
		first := num()
		if strings.IndexByte(zeroCountFinals, final) >= 0 && strings.Trim(first, "0") == "" {
			first = "" // a zero count is an exception (see diff_test.go)
		}
		switch rng.IntN(3) {
		case 0:
			return fmt.Sprintf("\x1b[%c", final)
		case 1:
			return fmt.Sprintf("\x1b[%s%c", first, final)
		}
		return fmt.Sprintf("\x1b[%s;%s%c", first, num(), final)
	case k < 70:
		return genSGR(rng)
	case k < 74:
		return fmt.Sprintf("\x1b[%sJ", []string{"", "0", "1", "2", "3"}[rng.IntN(5)])
	case k < 78:
		return fmt.Sprintf("\x1b[%sK", []string{"", "0", "1", "2"}[rng.IntN(4)])
	case k < 82:
		m := decModes[rng.IntN(len(decModes))]
		if rng.IntN(4) == 0 {
			return fmt.Sprintf("\x1b[%dh", []int{4, 20}[rng.IntN(2)]) // IRM (unsupported by both), LNM
		}
		return fmt.Sprintf("\x1b[?%d%c", m, "hl"[rng.IntN(2)])
	case k < 86: // margins, kept on the screen (see the exceptions)
		top, bottom := 1+rng.IntN(h), 1+rng.IntN(h)
		switch rng.IntN(4) {
		case 0:
			return "\x1b[r"
		case 1:
			left, right := 1+rng.IntN(w), 1+rng.IntN(w)
			return fmt.Sprintf("\x1b[%d;%ds", left, right)
		}
		return fmt.Sprintf("\x1b[%d;%dr", top, bottom)
	case k < 90:
		return []string{"\x1b7", "\x1b8", "\x1bD", "\x1bM", "\x1bH", "\x1b=", "\x1b>", "\x1b(0", "\x1b(B",
			"\x1b)0", "\x1b(A", "\x1bn", "\x1bo", "\x1b[s", "\x1b[u", "\x1b[?5W", "\x1b#8", "\x1bE"}[rng.IntN(18)]
	case k < 93: // queries
		return []string{"\x1b[c", "\x1b[>c", "\x1b[0c", "\x1b[5n", "\x1b[6n", "\x1b[?6n", "\x1b[?25$p",
			"\x1b[?2004$p", "\x1b[20$p", "\x1b[?9999$p", "\x1b]10;?\x07", "\x1b]11;?\x1b\\", "\x1b]12;?\x07",
			"\x1b]11;rgb:12/34/56\x07", "\x1b]110\x07", "\x1b[ 2q", "\x1b[>1c"}[rng.IntN(17)]
	case k < 96: // strings the terminal swallows
		return []string{"\x1b]0;title\x07", "\x1b]8;;https://example.com\x1b\\", "\x1b]8;;\x1b\\",
			"\x1b]52;c;ZXZpbA==\x07", "\x1bP1$r0m\x1b\\", "\x1b_Gf=100;AAAA\x1b\\", "\x1b^pm\x1b\\",
			"\x1bXsos\x1b\\", "\x1b]7;file:///tmp\x07", "\x1bPq#0;2;0;0;0\x1b\\"}[rng.IntN(10)]
	case k < 98:
		return fmt.Sprintf("\x1b[%db", 1+rng.IntN(3*w)) // REP
	case k < 99:
		return "\x1bc" // RIS
	}
	// raw bytes, incomplete and broken sequences
	b := make([]byte, 1+rng.IntN(4))
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return string(b)
}

func genNum(rng *rand.Rand, w, h int) string {
	switch rng.IntN(6) {
	case 0:
		return ""
	case 1:
		return "0"
	case 2:
		return fmt.Sprint(1 + rng.IntN(3))
	case 3:
		return fmt.Sprint(rng.IntN(max(w, h) + 5))
	case 4:
		return fmt.Sprint(rng.IntN(1000))
	}
	return fmt.Sprint(rng.IntN(h + 2))
}

func genSGR(rng *rand.Rand) string {
	var ps []string
	for range 1 + rng.IntN(4) {
		switch rng.IntN(12) {
		case 0:
			ps = append(ps, "0")
		case 1:
			ps = append(ps, fmt.Sprint([]int{1, 2, 3, 4, 5, 7, 8, 9, 21, 22, 23, 24, 25, 27, 28, 29, 39, 49, 59}[rng.IntN(19)]))
		case 2, 3:
			ps = append(ps, fmt.Sprint(30+rng.IntN(8)+[]int{0, 10, 60, 70}[rng.IntN(4)]))
		case 4, 5:
			ps = append(ps, fmt.Sprintf("%d;5;%d", []int{38, 48, 58}[rng.IntN(3)], rng.IntN(256)))
		case 6, 7:
			ps = append(ps, fmt.Sprintf("%d;2;%d;%d;%d", []int{38, 48, 58}[rng.IntN(3)], rng.IntN(256), rng.IntN(256), rng.IntN(256)))
		case 8:
			ps = append(ps, fmt.Sprintf("%d:2::%d:%d:%d", []int{38, 48}[rng.IntN(2)], rng.IntN(256), rng.IntN(256), rng.IntN(256)))
		case 9:
			ps = append(ps, fmt.Sprintf("4:%d", rng.IntN(6)))
		case 10:
			ps = append(ps, "")
		default:
			ps = append(ps, fmt.Sprint(rng.IntN(110)))
		}
	}
	return "\x1b[" + strings.Join(ps, ";") + "m"
}

// testLog is a test run's log as a coder prints it: coloured status words,
// tabs, lines longer than the screen, progress redrawn in place.
func testLog(lines int) []byte {
	var sb strings.Builder
	for i := range lines {
		switch i % 7 {
		case 3:
			fmt.Fprintf(&sb, "\x1b[31mFAIL\x1b[0m\tgithub.com/example/service/pkg%03d\t0.%03ds — expected %q, got %q in a line long enough to wrap around the screen once or twice\r\n", i, i, "ünïcode ✓", "中文")
		case 5:
			fmt.Fprintf(&sb, "\r\x1b[2K\x1b[1;36m[%3d%%]\x1b[0m building…", i%100)
		default:
			fmt.Fprintf(&sb, "\x1b[32mok\x1b[0m  \tgithub.com/example/service/pkg%03d\t0.%03ds\r\n", i, i)
		}
	}
	return []byte(sb.String())
}
