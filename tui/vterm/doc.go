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
// pane used before, cell for cell (the differential tests hold it to that);
// the exceptions, where x/vt is wrong, are listed in those tests.
package vterm
