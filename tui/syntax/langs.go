package syntax

import (
	"strings"
	"sync"
)

// Lang is one language's table: what starts a comment or a string, its
// keywords and constants, and the line shapes it has.
type Lang struct {
	Name         string
	comments     []string  // line comments
	block        [2]string // a block comment's opening and closing marks
	quotes       string    // bytes that open (and close) a string
	tripleQuotes bool      // """ … """ (Python)
	keywords     string    // space-separated; made a set on first use (sets)
	constants    string
	foldCase     bool   // keywords match in any case (SQL, Dockerfile)
	keySep       string // a line may start with a key ended by one of these (":" YAML, "=" TOML)
	keyStrings   bool   // a string before ":" is a key (JSON)
	vars         bool   // $NAME is a variable (shell, PHP, Makefile)
	markup       bool   // <tag attr="…"> (HTML, XML)
	headings     bool   // # Heading lines (Markdown)
	directives   bool   // #include at a line's start (C, C++)
	dashWords    bool   // words may hold "-" (CSS properties, Lisp-like names)

	once sync.Once
	kw   map[string]Kind
}

// kinds is the language's keywords and constants as one set, made on first
// use: a table costs nothing at the binary's start.
func (l *Lang) kinds() map[string]Kind {
	l.once.Do(func() {
		l.kw = map[string]Kind{}
		for _, w := range strings.Fields(l.constants) {
			l.kw[w] = Constant
		}
		for _, w := range strings.Fields(l.keywords) {
			l.kw[w] = Keyword
		}
	})
	return l.kw
}

const cKeywords = `auto break case char const continue default do double else enum extern float for goto if
	inline int long register restrict return short signed sizeof static struct switch typedef union unsigned
	void volatile while bool _Bool`

var (
	langGo = &Lang{Name: "go", comments: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'`",
		keywords: `break case chan const continue default defer else fallthrough for func go goto if
			import interface map package range return select struct switch type var`,
		constants: "true false nil iota"}
	langC = &Lang{Name: "c", comments: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'", directives: true,
		keywords: cKeywords, constants: "true false NULL"}
	langCpp = &Lang{Name: "c++", comments: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'", directives: true,
		keywords: cKeywords + ` class namespace template typename public private protected virtual override
			final new delete this using try catch throw constexpr noexcept operator friend explicit mutable
			static_cast dynamic_cast reinterpret_cast const_cast decltype`,
		constants: "true false nullptr NULL"}
	langJava = &Lang{Name: "java", comments: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'",
		keywords: `abstract assert boolean break byte case catch char class const continue default do
			double else enum extends final finally float for goto if implements import instanceof int interface
			long native new package private protected public return short static strictfp super switch
			synchronized this throw throws transient try var void volatile while record sealed permits yield`,
		constants: "true false null"}
	langKotlin = &Lang{Name: "kotlin", comments: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'", tripleQuotes: true,
		keywords: `as break class continue do else for fun if in interface is object package return super
			this throw try typealias typeof val var when while by catch constructor companion data enum
			finally import init internal lateinit open override private protected public sealed suspend`,
		constants: "true false null"}
	langCSharp = &Lang{Name: "c#", comments: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'", directives: true,
		keywords: `abstract as base bool break byte case catch char checked class const continue decimal
			default delegate do double else enum event explicit extern finally fixed float for foreach goto if
			implicit in int interface internal is lock long namespace new object operator out override params
			private protected public readonly ref return sbyte sealed short sizeof static string struct switch
			this throw try typeof uint ulong unchecked unsafe ushort using virtual void volatile while var async
			await record`,
		constants: "true false null"}
	langSwift = &Lang{Name: "swift", comments: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"", tripleQuotes: true,
		keywords: `associatedtype class deinit enum extension fileprivate func import init inout internal
			let open operator private protocol public rethrows static struct subscript typealias var break case
			continue default defer do else fallthrough for guard if in repeat return switch where while as catch
			is super self throw throws try async await`,
		constants: "true false nil"}
	langRust = &Lang{Name: "rust", comments: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"",
		keywords: `as async await break const continue crate dyn else enum extern fn for if impl in let
			loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while`,
		constants: "true false None Some Ok Err"}
	langJS = &Lang{Name: "javascript", comments: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'`",
		keywords: `break case catch class const continue debugger default delete do else export extends
			finally for function if import in instanceof let new of return super switch this throw try typeof
			var void while with yield async await static get set from as`,
		constants: "true false null undefined NaN Infinity"}
	langTS = &Lang{Name: "typescript", comments: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'`",
		keywords: `break case catch class const continue debugger default delete do else export extends
			finally for function if import in instanceof let new of return super switch this throw try typeof
			var void while with yield async await static get set from as interface type enum implements private
			protected public readonly declare namespace abstract keyof satisfies`,
		constants: "true false null undefined NaN Infinity"}
	langPython = &Lang{Name: "python", comments: []string{"#"}, quotes: "\"'", tripleQuotes: true,
		keywords: `and as assert async await break class continue def del elif else except finally for
			from global if import in is lambda nonlocal not or pass raise return try while with yield match case`,
		constants: "True False None self cls"}
	langRuby = &Lang{Name: "ruby", comments: []string{"#"}, quotes: "\"'",
		keywords: `alias and begin break case class def defined do else elsif end ensure for if in module
			next not or redo rescue retry return super then undef unless until when while yield require
			require_relative attr_reader attr_writer attr_accessor private protected public`,
		constants: "true false nil self"}
	langShell = &Lang{Name: "shell", comments: []string{"#"}, quotes: "\"'", vars: true,
		keywords: `if then else elif fi case esac for while until do done in function select return exit
			export local readonly declare set unset shift source alias trap eval exec`,
		constants: "true false"}
	langPHP = &Lang{Name: "php", comments: []string{"//", "#"}, block: [2]string{"/*", "*/"}, quotes: "\"'", vars: true,
		keywords: `abstract and as break case catch class clone const continue declare default do echo
			else elseif empty enum extends final finally fn for foreach function global if implements include
			instanceof interface isset list match namespace new or print private protected public readonly
			require require_once return static switch throw trait try unset use var while yield`,
		constants: "true false null TRUE FALSE NULL"}
	langLua = &Lang{Name: "lua", comments: []string{"--"}, quotes: "\"'",
		keywords:  ("and break do else elseif end for function goto if in local not or repeat return then until while"),
		constants: "true false nil"}
	langSQL = &Lang{Name: "sql", comments: []string{"--"}, block: [2]string{"/*", "*/"}, quotes: "'\"", foldCase: true,
		keywords: `select from where insert into values update set delete create table alter drop index
			view join left right inner outer full cross on group by order having limit offset as and or not
			is in exists distinct union all primary key foreign references constraint unique default begin
			commit rollback transaction case when then else end with returning if grant revoke`,
		constants: "null true false"}
	langYAML = &Lang{Name: "yaml", comments: []string{"#"}, quotes: "\"'", keySep: ":",
		constants: "true false null yes no on off True False Null ~"}
	langTOML = &Lang{Name: "toml", comments: []string{"#"}, quotes: "\"'", tripleQuotes: true, keySep: "=",
		constants: "true false"}
	langINI = &Lang{Name: "ini", comments: []string{"#", ";"}, quotes: "\"'", keySep: "=:",
		constants: "true false yes no on off"}
	langJSON = &Lang{Name: "json", comments: []string{"//"}, quotes: "\"", keyStrings: true,
		constants: "true false null"}
	langMarkdown = &Lang{Name: "markdown", quotes: "`", headings: true}
	langMarkup   = &Lang{Name: "markup", block: [2]string{"<!--", "-->"}, quotes: "\"'", markup: true}
	langCSS      = &Lang{Name: "css", block: [2]string{"/*", "*/"}, quotes: "\"'", keySep: ":", dashWords: true,
		keywords: "@media @import @keyframes @font-face !important"}
	langMake = &Lang{Name: "make", comments: []string{"#"}, quotes: "\"'", vars: true, keySep: ":=?+",
		keywords: "ifeq ifneq ifdef ifndef else endif include define endef export override .PHONY"}
	langDocker = &Lang{Name: "dockerfile", comments: []string{"#"}, quotes: "\"'", vars: true, foldCase: true,
		keywords: `from run copy add cmd entrypoint env arg workdir expose user label volume healthcheck
			shell onbuild stopsignal maintainer as`}
)
