// Package vterm is the terminal emulator the coder pane draws a full-screen
// coder (Claude Code, Codex) into: it parses the coder's output into a
// screen of cells, answers the coder's terminal queries (device attributes,
// cursor position, mode and colour reports) and encodes the person's keys
// and pastes the way the coder's terminal modes expect.
//
// It owns the screen model alone: two screens (main and alternate) of
// compact cells whose rows are rotated, never copied, when a region
// scrolls; the cursor, the modes, tab stops and character sets. It keeps no
// scrollback (the pane shows the live screen only), its memory does not grow
// with the amount of output, and it never blocks: replies wait in a buffer
// until the caller takes them (Replies).
//
// It must not reach anything outside itself. Titles, hyperlinks, clipboard
// and notification requests, DCS, APC, PM and SOS strings are parsed and
// dropped; nothing the coder prints is passed on to the real terminal. It is
// not safe for concurrent use: the caller serialises every call.
//
// Its behaviour follows github.com/charmbracelet/x/vt v0.1.0, the emulator the
// pane used before, cell for cell (the differential tests hold it to that),
// so that the coders draw in the pane as they did; the exceptions, where
// x/vt breaks the pane (a cursor off the screen, unbounded loops, keys it
// cannot encode), are listed in those tests. Where x/vt departs from xterm
// in ways the recorded coders do not exercise (neither recording uses these
// sequences), vterm departs with it, for now:
//   - IL and DL in a scroll region below the top of the screen move the
//     cursor down by the top margin; HPA and HPR in origin mode do too.
//   - HVP ignores origin mode (CUP honours it).
//   - ED 1 erases the cursor's whole line; DCH loses a wide character it
//     moves; ICH and DCH do nothing outside the scroll region's rows.
//   - a wide character in the last-but-one column leaves no pending wrap.
//   - entering the alternate screen homes the cursor; DECRC restores the
//     cursor's visibility with its position; SO and SI are ignored; the UK
//     set replaces '$'.
package vterm
