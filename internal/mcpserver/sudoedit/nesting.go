package sudoedit

import (
	"fmt"
	"path/filepath"
	"strings"
)

// MaxNesting bounds how deep brackets, braces and parentheses may nest in
// new content before any validator sees it. The validators (TOML, JSON,
// YAML, Go and shell parsers) run as root inside the helper; some use
// memory that grows with the square of the nesting depth, and the shell
// parser recurses until the goroutine stack overflows (fatal, not
// recoverable). No hand-written config nests this deep. The MCP server
// holds its own shell parses (an exec line, an edited script) to it too.
const MaxNesting = 256

// checkNesting refuses data whose brackets nest deeper than MaxNesting.
func checkNesting(path string, data []byte) error {
	ext := strings.ToLower(filepath.Ext(path))
	switch TooDeep(data, ext == ".sh" || ext == ".bash") {
	case "compound commands":
		return fmt.Errorf("the new script nests compound commands (if, while, for, case...) more than %d deep; the helper refuses it before validating (nothing written)", MaxNesting)
	case "brackets":
		return fmt.Errorf("the new content nests brackets more than %d deep; the helper refuses it before validating (nothing written)", MaxNesting)
	}
	return nil
}

// TooDeep says what in data nests deeper than MaxNesting: "brackets",
// "compound commands" (only when shell), or "" when nothing does.
// It counts every ( [ { as an opening and every ) ] } as a closing,
// ignoring quoting: an opener inside a string counts too, which can only
// make it stricter, never let a deeper text through.
// For a shell script, the compound commands (if, while, until, for,
// case, select) count as openings and fi, done, esac as closings, outside
// comments: "if a;then " repeated takes the parser seconds and a gigabyte.
func TooDeep(data []byte, shell bool) string {
	if shell && shellTooDeep(data) {
		return "compound commands"
	}
	depth := 0
	for _, c := range data {
		switch c {
		case '(', '[', '{':
			depth++
			if depth > MaxNesting {
				return "brackets"
			}
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return ""
}

// shellTooDeep says whether a script's compound commands nest deeper
// than MaxNesting; a keyword in a string counts too (stricter).
func shellTooDeep(data []byte) bool {
	depth := 0
	for _, line := range strings.Split(string(data), "\n") {
		for _, w := range strings.FieldsFunc(line, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r == '#')
		}) {
			if strings.HasPrefix(w, "#") {
				break // a comment, or what follows one
			}
			switch w {
			case "if", "while", "until", "for", "case", "select":
				depth++
				if depth > MaxNesting {
					return true
				}
			case "fi", "done", "esac":
				if depth > 0 {
					depth--
				}
			}
		}
	}
	return false
}
