package syntax

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// kinds renders a line's tokens as "kind:text" pairs, plain ones left out.
func kinds(l *Lang, line string) string {
	var parts []string
	for _, t := range l.Tokens(line) {
		if t.Kind != Plain {
			parts = append(parts, kindName[t.Kind]+":"+t.Text)
		}
	}
	return strings.Join(parts, " ")
}

var kindName = map[Kind]string{Keyword: "kw", Constant: "const", String: "str", Number: "num",
	Comment: "com", Function: "fn", Key: "key", Heading: "head"}

func TestTokensByLanguage(t *testing.T) {
	for _, c := range []struct {
		file, line, want string
	}{
		{"main.go", `	return fmt.Sprintf("a\"b %d", 42) // why`, `kw:return fn:Sprintf str:"a\"b %d" num:42 com:// why`},
		{"main.go", "x := `raw\\` + nil", "str:`raw\\` const:nil"},
		{"main.go", `	 * middle of a doc comment`, `com:* middle of a doc comment`},
		{"a/b.py", `def f(x=None):  # note`, `kw:def fn:f const:None com:# note`},
		{"a/b.py", `s = """doc " still"""`, `str:"""doc " still"""`},
		{"x.sh", `echo "$HOME" $# ${PATH} # done`, `str:"$HOME" key:$# key:${PATH} com:# done`},
		{"x.sh", `curl http://h/a#frag`, ``},
		{"c.yaml", `  - name: "v" # c`, `key:name str:"v" com:# c`},
		{"c.yaml", `url: http://x:80`, `key:url num:80`},
		{"c.toml", `[tool.x]`, `key:[tool.x]`},
		{"c.toml", `a.b = true`, `key:a.b const:true`},
		{"p.json", `  "k": [1, "v", false]`, `key:"k" num:1 str:"v" const:false`},
		{"q.sql", `SELECT id FROM t -- all`, `kw:SELECT kw:FROM com:-- all`},
		{"i.html", `<a href="x">go</a>`, `kw:<a key:href str:"x" kw:</a`},
		{"m.c", `#include <stdio.h>`, `kw:#include`},
		{"r.rs", `let it's = 0x1f;`, `kw:let num:0x1f`},
		{"README.md", "## Install `it`", "head:## Install `it`"},
		{"README.md", "Run `make`.", "str:`make`"},
		{"Dockerfile", `FROM golang:1.22 AS build`, `kw:FROM num:1.22 kw:AS`},
		{"Makefile", `test: build`, `key:test`},
		{"s.css", `  color: red; /* c */`, `key:color com:/* c */`},
	} {
		l := ForFile(c.file, "")
		if l == nil {
			t.Fatalf("%s: no language", c.file)
		}
		if got := kinds(l, c.line); got != c.want {
			t.Errorf("%s %q:\n got %s\nwant %s", c.file, c.line, got, c.want)
		}
	}
}

func TestForFile(t *testing.T) {
	for _, c := range []struct{ name, first, want string }{
		{"cmd/main.go", "", "go"},
		{"x/Dockerfile.prod", "", "dockerfile"},
		{".bashrc", "", "shell"},
		{"bin/tool", "#!/usr/bin/env python3", "python"},
		{"bin/tool", "#!/usr/bin/env -S node --harmony", "javascript"},
		{"bin/run", "#!/bin/bash -e", "shell"},
		{"LICENSE", "Copyright", ""},
		{"x.UNKNOWNEXT", "", ""},
	} {
		got := ""
		if l := ForFile(c.name, c.first); l != nil {
			got = l.Name
		}
		if got != c.want {
			t.Errorf("ForFile(%q, %q) = %q, want %q", c.name, c.first, got, c.want)
		}
	}
}

// Whatever the line — unterminated strings and comments, invalid UTF-8,
// control bytes — its tokens joined are the line, no token is empty, and a
// valid line's tokens are each valid UTF-8 (no character is cut).
func TestTokensKeepEveryByte(t *testing.T) {
	alphabet := []string{"a", "Z", "_", "1", "0x", ".", " ", "\t", "\"", "'", "`", "\\", "#", "//", "/*", "*/",
		"--", "<", ">", "=", ":", "$", "{", "}", "(", "é", "世", "\xff", "\x1b", "\u202e", "- ", "[", "]", "*"}
	langs := map[*Lang]bool{}
	for _, l := range byExt {
		langs[l] = true
	}
	rnd := rand.New(rand.NewSource(1))
	for l := range langs {
		for range 400 {
			var b strings.Builder
			for n := rnd.Intn(24); n > 0; n-- {
				b.WriteString(alphabet[rnd.Intn(len(alphabet))])
			}
			line := b.String()
			var joined strings.Builder
			for _, tok := range l.Tokens(line) {
				if tok.Text == "" {
					t.Fatalf("%s %q: an empty token", l.Name, line)
				}
				if utf8.ValidString(line) && !utf8.ValidString(tok.Text) {
					t.Fatalf("%s %q: token %q cuts a character", l.Name, line, tok.Text)
				}
				joined.WriteString(tok.Text)
			}
			if joined.String() != line {
				t.Fatalf("%s: tokens of %q join to %q", l.Name, line, joined.String())
			}
		}
	}
	var nilLang *Lang
	if got := nilLang.Tokens("plain"); len(got) != 1 || got[0] != (Token{Plain, "plain"}) {
		t.Errorf("no language: %v", got)
	}
}

func FuzzTokens(f *testing.F) {
	f.Add("go", `return "x" // y`)
	f.Add("py", `s = """a`)
	f.Fuzz(func(t *testing.T, ext, line string) {
		l := ForFile("f."+ext, line)
		var joined strings.Builder
		for _, tok := range l.Tokens(line) {
			joined.WriteString(tok.Text)
		}
		if joined.String() != line {
			t.Fatalf("tokens of %q join to %q", line, joined.String())
		}
	})
}
