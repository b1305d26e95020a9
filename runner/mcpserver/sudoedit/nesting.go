package sudoedit

import "fmt"

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
func checkNesting(data []byte) error {
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
