package tui

import "testing"

func TestCleanLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"\x1b[1;31mred\x1b[0m", "red"},
		{"a\tb", "a    b"},
		{"10%\r50%\r100%", "100%"},
		{"crlf\r", "crlf"},
		{"\x1b]0;window title\x07after", "after"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\x1b(Bcharset", "charset"},
		{"\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor"},
		{"bell\x07 back\x08space", "bell backspace"},
		{"c1 \u009b31mcsi", "c1 csi"},
		{"c1 \u0085nel", "c1 nel"},
		{"unicode ✓ café", "unicode ✓ café"},
		{"cut \x1b[3", "cut "},
	}
	for _, tt := range tests {
		if got := cleanLine(tt.in); got != tt.want {
			t.Errorf("cleanLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
