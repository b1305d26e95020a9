package vterm

// charset maps the ASCII characters a designated character set replaces.
type charset [128]rune

func (cs *charset) mapByte(b byte) (rune, bool) {
	if cs == nil || b >= 128 || cs[b] == 0 {
		return 0, false
	}
	return cs[b], true
}

var (
	// ukCharset is the UK set as x/vt has it: a pound sign for '$' (DEC's
	// replaces '#'; no coder designates it).
	ukCharset = &charset{'$': '£'}
	// specialDrawing is the DEC special graphics set: line drawing.
	specialDrawing = &charset{
		'`': '◆', 'a': '▒', 'b': '␉', 'c': '␌', 'd': '␍', 'e': '␊', 'f': '°', 'g': '±',
		'h': '␤', 'i': '␋', 'j': '┘', 'k': '┐', 'l': '┌', 'm': '└', 'n': '┼', 'o': '⎺',
		'p': '⎻', 'q': '─', 'r': '⎼', 's': '⎽', 't': '├', 'u': '┤', 'v': '┴', 'w': '┬',
		'x': '│', 'y': '⩽', 'z': '⩾', '{': 'π', '|': '≠', '}': '£', '~': '·',
	}
)
