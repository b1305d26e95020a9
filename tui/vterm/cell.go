package vterm

import (
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
)

// cell is one column of a screen row, 8 bytes: its character (or grapheme
// cluster), its style and how many columns it takes.
type cell struct {
	// r is the cell's character; a negative r is -(i+1) for cluster i of
	// the terminal's cluster table (more than one rune); 0 (with w 0) is
	// the placeholder that follows a wide character.
	r  rune
	st uint16 // index into the terminal's style table; 0 is no style
	w  uint8  // columns: 1, 2 for wide characters, 0 for placeholders
}

// blank is an erased cell: a space without style.
var blank = cell{r: ' ', w: 1}

// emptied is c turned into a space that keeps c's style: what is left of a
// wide character partly overwritten.
func emptied(c cell) cell { return cell{r: ' ', st: c.st, w: 1} }

// maxStyles and maxClusters bound the style and cluster tables; past them
// the tables are rebuilt from the cells on the screens.
const (
	maxStyles   = 1 << 16
	maxClusters = 1 << 14
)

// tables interns the styles and grapheme clusters cells refer to.
type tables struct {
	styles    []uv.Style
	styleIdx  map[uv.Style]uint16
	clusters  []string
	clusterIx map[string]int32
}

func newTables() tables {
	return tables{
		styles:    []uv.Style{{}},
		styleIdx:  map[uv.Style]uint16{{}: 0},
		clusterIx: map[string]int32{},
	}
}

// style returns the index of st, adding it; ok is false when the table is
// full.
func (t *tables) style(st uv.Style) (uint16, bool) {
	if i, ok := t.styleIdx[st]; ok {
		return i, true
	}
	if len(t.styles) >= maxStyles {
		return 0, false
	}
	i := uint16(len(t.styles))
	t.styles = append(t.styles, st)
	t.styleIdx[st] = i
	return i, true
}

// cluster returns the rune a cell holds for the grapheme cluster b: the rune
// itself when b is one, else a cluster table entry; ok is false when the
// table is full.
func (t *tables) cluster(b []byte) (rune, bool) {
	r, n := utf8.DecodeRune(b)
	if n == len(b) {
		return r, true
	}
	if i, ok := t.clusterIx[string(b)]; ok {
		return -(i + 1), true
	}
	if len(t.clusters) >= maxClusters {
		return 0, false
	}
	i := int32(len(t.clusters))
	s := string(b)
	t.clusters = append(t.clusters, s)
	t.clusterIx[s] = i
	return -(i + 1), true
}

// content is the text of c.
func (t *tables) content(c cell) string {
	switch {
	case c.r < 0:
		return t.clusters[-c.r-1]
	case c.r == 0 && c.w == 0:
		return ""
	case c.r < utf8.RuneSelf:
		return asciiStrings[c.r]
	}
	return string(c.r)
}

// asciiStrings holds every ASCII character as a string, so that reading a
// screen of ASCII allocates nothing per cell.
var asciiStrings = func() (s [utf8.RuneSelf]string) {
	for i := range s {
		s[i] = string(rune(i))
	}
	return s
}()
