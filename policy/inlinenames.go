package policy

import (
	"regexp"
	"strings"
)

// Inline code judged by what it names, not by substrings of its names
// (issue 32, polcorp6 class E1). riskyTokens holds words that name secret
// data (secret, token, password, credential): a snippet that spells one
// may be reading one. They are read as words: `token`, `TOKEN_FILE`,
// `getToken()`, `'.secrets/key'`, `passwords` name secret data;
// `tokenize`, `tokentoss`, `Tokenizer` are other words that begin with
// the same letters. Python's secrets module generates random values
// (secrets.token_hex(16)) and reads nothing: its calls are not names of
// secret data. The capabilities a snippet uses (open, environ, fs.r…)
// are judged by their own tokens as before.

// secretWord: one of the riskyTokens that name data, not a capability.
func secretWord(t string) bool {
	return t == "secret" || t == "token" || t == "password" || t == "credential"
}

// secretsModule matches the uses of Python's secrets module, which
// generates random values.
var secretsModule = lazy[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\bsecrets\.(token_hex|token_bytes|token_urlsafe|choice|randbelow|randbits|compare_digest|SystemRandom)\b|\bimport secrets\b|\bfrom secrets import (token_hex|token_bytes|token_urlsafe|choice|randbelow|randbits)\b`)
}}

// namesSecretWord reports whether code spells tok as a word of its own
// (an identifier part, a string's word, a plural), after the secrets
// module's calls are taken out.
func namesSecretWord(code, tok string) bool {
	code = secretsModule.get().ReplaceAllString(code, "_")
	low := strings.ToLower(code)
	for i := 0; i < len(low); {
		j := strings.Index(low[i:], tok)
		if j < 0 {
			return false
		}
		s, e := i+j, i+j+len(tok)
		if e < len(code) && code[e] == 's' && (e+1 == len(code) || wordBoundaryAfter(code, e+1)) {
			e++ // tokens, secrets, passwords
		}
		if wordBoundaryAfter(code, e) {
			return true
		}
		i = s + 1
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isUpper(c byte) bool  { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool  { return c >= 'a' && c <= 'z' }

// wordBoundaryAfter: a word ends before e (not a letter after it, or the
// next hump: tokenValue).
func wordBoundaryAfter(code string, e int) bool {
	return e >= len(code) || !isLetter(code[e]) || isUpper(code[e]) && isLower(code[e-1])
}
