package policy

import "strings"

// zsh -c (and -lc, Codex's macOS idiom: zsh -lc 'git status --short')
// whose payload bash and zsh read alike. zsh differs from bash in its
// expansions (=cmd, glob qualifiers that run code, ^ and # globbing, ~
// forms, $ forms, ! history) and in a few operators (&| and &! disown), not
// in how plain words, quotes without expansions and the operators | && ||
// ; & join commands. A payload made only of those is judged as bash
// without the ask that any other zsh payload carries (polcorp11: zsh -lc
// 'git status --short' asked as zsh); words zsh alone knows (repeat,
// noglob, print, setopt) are unknown programs to bash and still ask.

// zshPlainRunes are the characters such a payload may hold, beside
// letters and digits.
const zshPlainRunes = " \t_-./:,@+%=|&;'\""

// zshPlainAsBash reports whether zsh reads text as bash does.
func zshPlainAsBash(text string) bool {
	if strings.TrimSpace(text) == "" || strings.Contains(text, "&|") {
		return false
	}
	for _, c := range text {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(zshPlainRunes, c)) {
			return false
		}
	}
	// =cmd at the start of an unquoted word is the path of cmd in zsh.
	quote := rune(0)
	start := true
	for _, c := range text {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			start = false
		case c == '\'' || c == '"':
			quote, start = c, false
		case c == '=' && start:
			return false
		default:
			start = strings.ContainsRune(" \t|&;", c)
		}
	}
	return quote == 0
}
