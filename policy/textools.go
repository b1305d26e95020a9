package policy

import (
	"path/filepath"
	"strings"
)

// The TeX toolchain (issue 32, polcorp16: every LaTeX line of a thesis or
// paper repository asked, its programs unknown). A TeX engine compiling
// the project's document is the project's own code, as make is: TeX
// writes only below the working directory (openout_any=p) and runs no
// program but its allowlisted helpers (shell_escape=p), so a plain compile
// is allowed with the sandbox on and off. -shell-escape lets the document
// run any command: the project's code, allowed inside the sandbox only.
// latexmk drives the engines and reads the project's .latexmkrc (Perl, the
// project's code, as a Makefile is); -e and -r take Perl code or another
// rc file, and -pdflatex=CMD and its twins name the command it runs, which
// must be a TeX engine with the options below. Bibliography and index
// tools (bibtex, biber, makeindex, dvipdfmx) read the project's files;
// chktex, lacheck and texcount only read. Output directories are judged as
// writes. A line that wrote files before a -shell-escape compile, or a
// latexmkrc (or a directory that may hold one) before latexmk, asks: those
// files may be what runs. So does any option not listed here. A plain
// compile after the line wrote its output directory (xelatex && bibtex &&
// xelatex) is allowed: without -shell-escape a document runs no command.

// texEngines are the TeX engines.
var texEngines = wordSet{words: []string{"pdflatex", "xelatex", "lualatex", "latex", "platex", "uplatex", "pdftex", "xetex", "luatex", "tex"}}

// texEngineOpts are the engine options that change no more than how the
// document compiles and what is printed.
var texEngineOpts = wordSet{words: []string{"-interaction", "--interaction", "-halt-on-error", "--halt-on-error",
	"-file-line-error", "--file-line-error", "-synctex", "--synctex", "-draftmode", "--draftmode", "-recorder", "--recorder",
	"-no-shell-escape", "--no-shell-escape", "-jobname", "--jobname", "-kanji", "-8bit"}}

// texShellEscape are the options that let the document run commands.
var texShellEscape = wordSet{words: []string{"-shell-escape", "--shell-escape", "-enable-write18", "--enable-write18"}}

// texOutDirOpts name the directory the engine or latexmk writes.
var texOutDirOpts = wordSet{words: []string{"-output-directory", "--output-directory", "-outdir", "--outdir", "-auxdir", "--auxdir", "-aux-directory", "--aux-directory"}}

// latexmkOpts are latexmk's own switches that choose an engine, a mode or
// what is printed (-pv and -pvc open a viewer and are not among them).
var latexmkOpts = wordSet{words: []string{"-pdf", "-pdfxe", "-pdflua", "-pdfdvi", "-pdfps", "-xelatex", "-lualatex", "-dvi", "-ps",
	"-c", "-C", "-CA", "-f", "-g", "-gg", "-quiet", "-silent", "-verbose", "-use-make", "-bibtex", "-nobibtex", "-bibtex-cond",
	"-norc", "-time", "-recorder", "-deps"}}

// addTeXHandlers registers the TeX engines, latexmk and the tools around
// them.
func addTeXHandlers(handlers map[string]handler) {
	for _, n := range texEngines.words {
		handlers[n] = texEngine
	}
	handlers["latexmk"] = latexmkCmd
	for _, n := range []string{"bibtex", "pbibtex", "upbibtex", "biber", "makeindex", "dvipdfmx", "chktex", "lacheck", "texcount"} {
		handlers[n] = texReader
	}
}

// texCompile judges one option or operand shared by the engines and
// latexmk: ok says it was one of theirs; escape that it was -shell-escape;
// skip how many more words it took. An output directory is added to outs,
// judged as a write after the decision (a write judged first would read as
// a file this line wrote before it compiles).
func (x *cmdCtx) texCompile(args []word, i int, outs *[]word) (ok, escape bool, skip int) {
	w := args[i]
	name, val, hasVal := strings.Cut(w.val, "=")
	switch {
	case texShellEscape.has(name):
		return true, true, 0
	case texOutDirOpts.has(name):
		if hasVal {
			*outs = append(*outs, word{val: val, static: true})
			return true, false, 0
		}
		if i+1 < len(args) && args[i+1].static && !args[i+1].brace && !strings.HasPrefix(args[i+1].val, "-") {
			*outs = append(*outs, args[i+1])
			return true, false, 1
		}
		return false, false, 0
	case texEngineOpts.has(name):
		if !hasVal && (name == "-interaction" || name == "--interaction" || name == "-jobname" || name == "--jobname") {
			if i+1 < len(args) && args[i+1].static && !strings.HasPrefix(args[i+1].val, "-") {
				return true, false, 1
			}
			return false, false, 0
		}
		return !hasVal || !strings.ContainsAny(val, "/\\~$`"), false, 0
	case !strings.HasPrefix(w.val, "-"):
		x.read(w)
		return true, false, 0
	}
	return false, false, 0
}

// texDecide adds the compile's decision, then judges its output
// directories as writes.
func (x *cmdCtx) texDecide(prog string, escape bool, outs []word) {
	switch {
	case escape && x.writtenBefore() || prog == "latexmk" && x.latexmkrcWritten():
		x.add(Ask, RuleBuildOption, prog+" runs code from files this line has just written")
	case escape && (!x.c.sandbox || x.c.inPlace):
		x.add(Ask, RuleBuildOption, prog+" -shell-escape lets the document run any command, outside the sandbox")
	case escape:
		x.add(Allow, RuleSandboxCode, prog+" -shell-escape runs the document's commands, the project's own code, inside the sandbox")
	default:
		x.add(Allow, RuleBuildProject, prog+" compiles the project's document")
	}
	x.inWorkspace()
	for _, o := range outs {
		x.write(o)
	}
}

func texEngine(x *cmdCtx, args []word) {
	escape := false
	var outs []word
	for i := 1; i < len(args); i++ {
		if !args[i].static || args[i].brace {
			x.add(Ask, RuleShellDynamicArg, args[0].val+" has an argument that cannot be judged before it runs")
			return
		}
		if x.texInlineCode(args[0].val, args[i]) {
			return
		}
		ok, esc, skip := x.texCompile(args, i, &outs)
		if !ok {
			x.add(Ask, RuleBuildOption, args[0].val+" "+quoteShort(args[i].val)+" is not an option the policy knows")
			return
		}
		escape = escape || esc
		i += skip
	}
	x.texDecide(args[0].val, escape, outs)
}

// texInlineCode: an engine's argument that begins with a backslash is TeX
// code (web2c's \FIRST-LINE: `lualatex '\directlua{…}'` runs Lua, whose
// io.open and os.remove LuaTeX leaves unrestricted without --safer), one
// that begins with & names a format to load: code on the line, not the
// project's document, so it asks off and in place (revpol). It reports
// whether it asked.
func (x *cmdCtx) texInlineCode(prog string, w word) bool {
	if !strings.HasPrefix(w.val, `\`) && !strings.HasPrefix(w.val, "&") || x.c.sandbox && !x.c.inPlace {
		return false
	}
	x.add(Ask, RuleInterpInline, prog+" runs TeX code given on the line ("+quoteShort(w.val)+"), not the project's document")
	return true
}

func latexmkCmd(x *cmdCtx, args []word) {
	escape := false
	var outs []word
	for i := 1; i < len(args); i++ {
		w := args[i]
		if !w.static || w.brace {
			x.add(Ask, RuleShellDynamicArg, "latexmk has an argument that cannot be judged before it runs")
			return
		}
		name, val, hasVal := strings.Cut(w.val, "=")
		if latexmkOpts.has(w.val) {
			continue
		}
		if texEngines.has(strings.TrimLeft(name, "-")) && hasVal && strings.HasPrefix(name, "-") {
			// -pdflatex="pdflatex -interaction=nonstopmode": the command it runs
			if !x.texCommandValue(val) {
				x.add(Ask, RuleBuildOption, "latexmk "+quoteShort(name)+" names a command that is not a TeX engine with known options")
				return
			}
			continue
		}
		ok, esc, skip := x.texCompile(args, i, &outs)
		if !ok {
			x.add(Ask, RuleBuildOption, "latexmk "+quoteShort(w.val)+" is not an option the policy knows (-e and -r take Perl code)")
			return
		}
		escape = escape || esc
		i += skip
	}
	x.texDecide("latexmk", escape, outs)
}

// texCommandValue: latexmk's engine command, a TeX engine followed by
// engine options and latexmk's %O %S placeholders only.
func (x *cmdCtx) texCommandValue(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 || !texEngines.has(f[0]) {
		return false
	}
	for _, a := range f[1:] {
		if a == "%O" || a == "%S" {
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		if !texEngineOpts.has(name) || hasVal && strings.ContainsAny(val, "/\\~$`;&|") {
			return false
		}
	}
	return true
}

// texReader judges the bibliography, index and checking tools: operands
// are read; an option that writes elsewhere (-o, --output*) asks.
func texReader(x *cmdCtx, args []word) {
	for _, w := range args[1:] {
		name, _, _ := strings.Cut(w.val, "=")
		if w.static && (name == "-o" || strings.HasPrefix(name, "--output") || name == "--tool" || name == "-l" && args[0].val == "chktex") {
			x.add(Ask, RuleBuildOption, args[0].val+" "+quoteShort(w.val)+" writes or loads a file the policy does not follow")
			return
		}
	}
	readAll(x, args)
}

// latexmkrcWritten: the line wrote, before latexmk runs, a latexmkrc (Perl
// that latexmk runs) or a whole directory that may hold one.
func (x *cmdCtx) latexmkrcWritten() bool {
	for p := range x.c.written {
		b := filepath.Base(p)
		if b == ".latexmkrc" || b == "latexmkrc" || filepath.Ext(b) == "" && !strings.HasPrefix(b, ".") {
			return true
		}
	}
	return false
}
