package vterm

import "github.com/charmbracelet/x/ansi/parser"

// A control string (OSC, DCS, SOS, PM, APC) may hold UTF-8: Claude Code
// sets its window title to "✳ Claude Code", whose ✳ is E2 9C B3. The
// parser reads every byte alone, and 0x9C is the 8-bit String Terminator:
// the title ended at it and " Claude Code" was printed where the cursor
// stood — Claude's input line ("❯ Claude Code", "❯�/help e Code" after
// typing, issue 37.3). Other bytes from 0x80 up end an SOS, PM, APC or
// DCS string the same way. In a UTF-8 terminal, 8-bit controls are not
// read inside a character, so the bytes of each UTF-8 character in a
// control string reach the parser as '?': what those strings carry is
// dropped here anyway (titles, links) or ASCII (colours). A byte that
// starts no valid character is passed as it is.

// stringUTF8 turns the bytes of UTF-8 characters inside control strings
// into '?'; it remembers a character cut between two writes.
type stringUTF8 struct {
	due int // continuation bytes still due of the character being read
}

// byteFor is the byte the parser, in state st, gets for b.
func (s *stringUTF8) byteFor(st parser.State, b byte) byte {
	if b < 0x80 || !inControlString(st) {
		s.due = 0
		return b
	}
	if s.due > 0 && b <= 0xbf {
		s.due--
		return '?'
	}
	s.due = 0
	switch {
	case b >= 0xc2 && b <= 0xdf:
		s.due = 1
	case b >= 0xe0 && b <= 0xef:
		s.due = 2
	case b >= 0xf0 && b <= 0xf4:
		s.due = 3
	default:
		return b
	}
	return '?'
}

func inControlString(s parser.State) bool {
	switch s {
	case parser.OscStringState, parser.DcsStringState, parser.SosStringState, parser.PmStringState, parser.ApcStringState:
		return true
	}
	return false
}
