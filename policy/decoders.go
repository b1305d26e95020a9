package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Decoders turn text nobody can read into text that runs: eval "$(echo …
// | base64 -d)", sh -c "$(xxd -r -p <<< …)", source <(… | gunzip). Their
// output fed to a shell is judged as downloaded code is (words.go: a word
// whose substitution decodes is marked fetch), the same as `… | base64 -d
// | sh`.

// alwaysDecoders decode whatever their options.
var alwaysDecoders = wordSet{words: []string{"uudecode", "gunzip", "zcat", "gzcat", "bzcat", "xzcat", "unxz", "unlzma",
	"lzcat", "unzstd", "zstdcat", "lz4cat", "bunzip2", "rev", "unpack200"}}

// decodeOpts are, per program, the option letters and long options that
// make it decode.
type decodeOpt struct {
	short string
	long  []string
}

var decodeOpts = lazy[map[string]decodeOpt]{build: func() map[string]decodeOpt {
	return map[string]decodeOpt{
		"base64":  {"dD", []string{"--decode"}},
		"gbase64": {"dD", []string{"--decode"}},
		"base32":  {"d", []string{"--decode"}},
		"basenc":  {"d", []string{"--decode"}},
		"xxd":     {"r", []string{"-revert"}},
		"gzip":    {"d", []string{"--decompress", "--uncompress"}},
		"bzip2":   {"d", []string{"--decompress"}},
		"xz":      {"d", []string{"--decompress", "--uncompress"}},
		"lzma":    {"d", []string{"--decompress"}},
		"zstd":    {"d", []string{"--decompress", "--uncompress"}},
		"lz4":     {"d", []string{"--decompress", "--uncompress"}},
		"brotli":  {"d", []string{"--decompress"}},
	}
}}

// decodes reports whether a call decodes its input.
func decodes(call *syntax.CallExpr) bool {
	if len(call.Args) == 0 {
		return false
	}
	prog := call.Args[0].Lit()
	if b, ok := resolvedProgram(prog); ok {
		prog = b
	}
	if alwaysDecoders.has(prog) {
		return true
	}
	d, ok := decodeOpts.get()[prog]
	if !ok || d.short == "" {
		return false
	}
	for _, a := range call.Args[1:] {
		v := a.Lit()
		if v == "" {
			continue
		}
		if strings.HasPrefix(v, "--") {
			name, _, _ := strings.Cut(v, "=")
			for _, l := range d.long {
				if name == l || len(name) > 3 && strings.HasPrefix(l, name) {
					return true
				}
			}
			continue
		}
		if v[0] == '-' && strings.ContainsAny(v[1:], d.short) || contains(d.long, v) {
			return true
		}
	}
	return false
}
