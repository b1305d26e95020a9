package sudoedit

import (
	"fmt"
	"path/filepath"
	"strings"
)

// maxNesting bounds how deep brackets, braces and parentheses may nest in
// new content before any validator sees it. The validators (TOML, JSON,
// YAML, Go and shell parsers) run as root inside the helper; some use
// memory that grows with the square of the nesting depth, and the shell
// parser recurses until the goroutine stack overflows (fatal, not
// recoverable). No hand-written config nests this deep.
const maxNesting = 256

// checkNesting refuses data whose brackets nest deeper than maxNesting.
// It counts every ( [ { as an opening and every ) ] } as a closing,
// ignoring quoting: an opener inside a string counts too, which can only
// make it stricter, never let a deeper file through.
// For a shell script, the compound commands (if, while, until, for,
// case, select) count as openings and fi, done, esac as closings, outside
// comments: "if a;then " repeated takes the parser seconds and a gigabyte.
func checkNesting(path string, data []byte) error {
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".sh" || ext == ".bash" {
		if err := checkShellNesting(data); err != nil {
			return err
		}
	}
	depth := 0
	for _, c := range data {
		switch c {
		case '(', '[', '{':
			depth++
			if depth > maxNesting {
				return fmt.Errorf("the new content nests brackets more than %d deep; the helper refuses it before validating (nothing written)", maxNesting)
			}
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// checkShellNesting refuses a script whose compound commands nest deeper
// than maxNesting; a keyword in a string counts too (stricter).
func checkShellNesting(data []byte) error {
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
				if depth > maxNesting {
					return fmt.Errorf("the new script nests compound commands (if, while, for, case...) more than %d deep; the helper refuses it before validating (nothing written)", maxNesting)
				}
			case "fi", "done", "esac":
				if depth > 0 {
					depth--
				}
			}
		}
	}
	return nil
}
