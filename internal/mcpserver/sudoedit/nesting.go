package sudoedit

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/policy/nesting"
)

// MaxNesting bounds how deep brackets, braces and parentheses may nest in
// new content before any validator sees it. The validators (TOML, JSON,
// YAML, Go and shell parsers) run as root inside the helper; some use
// memory that grows with the square of the nesting depth, and the shell
// parser recurses until the goroutine stack overflows (fatal, not
// recoverable). No hand-written config nests this deep. The MCP server
// holds its own shell parses (an exec line, an edited script) to it too.
const MaxNesting = nesting.Max

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
// "compound commands" (only when shell), or "" when nothing does. The
// count is the policy engine's (policy/nesting), so the helper and every
// parse of shell text refuse the same texts.
func TooDeep(data []byte, shell bool) string {
	return nesting.TooDeep(string(data), shell)
}
