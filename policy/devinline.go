package policy

import (
	"strings"
)

// Package development spelled as inline code. R and Julia projects run
// their tests, docs and checks through one-line snippets (`Rscript -e
// 'devtools::test()'`, `julia --project=. -e 'using Pkg; Pkg.test()'`):
// the snippet only calls the package tooling, which runs the project's own
// code. Such a snippet is judged by the calls it makes, not asked as code
// nobody can read: every statement must load a package (library(x),
// using X, import X) or call a function of the development tables below
// with literal arguments only (strings that stay in the workspace,
// numbers, TRUE/FALSE, c(...) of literals, name = literal). Then it is the
// project's own code, allowed inside the sandbox and asked without it. A
// call that releases or submits the package publishes (denied); any other
// snippet keeps the interpreter's inline-code judgement, which still reads
// deletions of the home and plain exfiltration.

// devCalls name the development functions per language: "pkg::fn" or
// "Pkg.fn" qualified, and the bare name a loaded package provides.
var devCalls = lazy[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"r": setOf("devtools::test", "devtools::document", "devtools::check", "devtools::load_all", "devtools::build",
			"devtools::build_readme", "devtools::lint", "devtools::spell_check", "devtools::run_examples", "devtools::check_man",
			"devtools::test_active_file", "devtools::install_deps", "devtools::build_vignettes", "testthat::test_dir", "testthat::test_local",
			"testthat::test_file", "testthat::test_package", "rcmdcheck::rcmdcheck", "roxygen2::roxygenise", "roxygen2::roxygenize",
			"lintr::lint_package", "lintr::lint_dir", "lintr::lint", "styler::style_pkg", "styler::style_dir", "styler::style_file",
			"covr::package_coverage", "pkgload::load_all", "rextendr::document", "remotes::install_deps", "renv::restore",
			"test", "document", "check", "load_all", "check_doc", "build", "lint_package", "style_pkg", "test_dir", "test_local",
			"rcmdcheck", "roxygenise", "package_coverage", "print", "sessionInfo"),
		"julia": setOf("Pkg.test", "Pkg.instantiate", "Pkg.precompile", "Pkg.build", "Pkg.status", "Pkg.resolve",
			"Pkg.activate", "format", "JuliaFormatter.format", "include", "println", "versioninfo", "test", "instantiate", "precompile"),
	}
}}

// devLang names the language of an interpreter whose snippets devInline
// reads.
func devLang(base string) string {
	switch base {
	case "R", "Rscript":
		return "r"
	case "julia":
		return "julia"
	}
	return ""
}

// devLoads are the packages a snippet may load.
var devLoads = wordSet{words: []string{"devtools", "testthat", "rcmdcheck", "roxygen2", "lintr", "styler", "covr", "pkgload",
	"rextendr", "remotes", "renv", "usethis", "Pkg", "JuliaFormatter", "Test", "Documenter", "InteractiveUtils"}}

// devInline judges an R or Julia snippet; it reports false when the
// snippet is not package development, to be judged as inline code.
func (x *cmdCtx) devInline(name, lang, code string) bool {
	stmts := splitDevStatements(code)
	if len(stmts) == 0 || codeReadsEnv(code) { // an environment read is judged as inline code (inlineenv.go)
		return false
	}
	calls := devCalls.get()[lang]
	for _, st := range stmts {
		if devLoad(lang, st) {
			continue
		}
		fn, args, ok := devCall(st)
		if !ok {
			return false
		}
		if publishWord(fn) || strings.HasSuffix(fn, "submit_cran") {
			x.add(Deny, RulePublish, name+" "+fn+"() releases the package to its registry")
			return true
		}
		if !calls[fn] || !devArgs(args) {
			return false
		}
	}
	x.sandboxedCode(name+" runs the package's development tools (the project's own code)", RuleInterpInline, name+" runs inline code")
	x.inWorkspace()
	return true
}

// splitDevStatements splits on ; and newlines outside quotes and
// parentheses; it returns nil when the text cannot be split plainly.
func splitDevStatements(code string) []string {
	var out []string
	depth, start := 0, 0
	var q byte
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case q != 0:
			if c == '\\' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth < 0 {
				return nil
			}
		case (c == ';' || c == '\n') && depth == 0:
			if s := strings.TrimSpace(code[start:i]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if q != 0 || depth != 0 {
		return nil
	}
	if s := strings.TrimSpace(code[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// devLoad: library(x) / require(x) / using X / import X[: f].
func devLoad(lang, st string) bool {
	if lang == "r" {
		for _, f := range []string{"library(", "require(", "suppressPackageStartupMessages(library("} {
			if rest, ok := strings.CutPrefix(st, f); ok {
				name := strings.Trim(strings.TrimRight(rest, ")"), `"' `)
				return devLoads.has(name)
			}
		}
		return false
	}
	for _, kw := range []string{"using ", "import "} {
		if rest, ok := strings.CutPrefix(st, kw); ok {
			mod, _, _ := strings.Cut(rest, ":")
			for _, m := range strings.Split(mod, ",") {
				if !devLoads.has(strings.TrimSpace(m)) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// devCall splits `name(args)` (name may be pkg::fn or Mod.fn).
func devCall(st string) (string, string, bool) {
	open := strings.IndexByte(st, '(')
	if open <= 0 || !strings.HasSuffix(st, ")") {
		return "", "", false
	}
	fn := st[:open]
	for _, r := range fn {
		if !(r == '_' || r == '.' || r == ':' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return "", "", false
		}
	}
	return fn, st[open+1 : len(st)-1], true
}

// devArgs: literals only. Strings must not leave the workspace; the only
// call allowed inside is c(...); names and identifiers are TRUE, FALSE,
// ARGS, argument names before = and numbers.
func devArgs(args string) bool {
	for _, lit := range allLiterals(args) {
		if strings.HasPrefix(lit, "/") || strings.HasPrefix(lit, "~") || strings.Contains(lit, "..") || strings.ContainsAny(lit, "`$") {
			return false
		}
	}
	rest := args
	for _, l := range allLiterals(args) {
		rest = strings.Replace(rest, l, "", 1)
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c == '(' {
			j := i - 1
			for j >= 0 && rest[j] == ' ' {
				j--
			}
			if j < 0 || rest[j] != 'c' || j > 0 && isIdentByte(rest[j-1]) {
				return false
			}
			continue
		}
		if !(isIdentByte(c) || strings.IndexByte(" \t,=\"')-.[]", c) >= 0) {
			return false
		}
	}
	return true
}
