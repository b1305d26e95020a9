package policy

import "strings"

// yq is judged by its own option table, not jq's: yq's -o, -p, -I and
// --expression take a value (read with jq's table, the value became the
// program and the real program a file to read, so
// `yq -o json -n 'strenv(KEY)'` passed), -s/--split-exp writes a file per
// document under a name the expression or the data chooses, and its
// language has functions of its own that read the environment (strenv,
// envsubst) or any file (load, load_str, …) or evaluate text built at run
// time (eval). An option yq has that this table does not name asks.

// yqValueOpts take a value (next word, or after "=", or attached to a short
// option) and are otherwise inert.
var yqValueOpts = wordSet{words: []string{"-o", "--output-format", "-p", "--input-format", "-I", "--indent",
	"--csv-separator", "--properties-separator", "--xml-attribute-prefix", "--xml-content-name",
	"--xml-directive-name", "--xml-proc-inst-prefix", "--xml-skip-directives", "--xml-skip-proc-inst",
	"--xml-keep-namespace", "--xml-raw-token", "--xml-strict-mode", "--lua-prefix", "--lua-suffix", "-F", "--front-matter",
	"-w", "--width", "--indent-width"}}

// yqFlags take no value and are inert.
var yqFlags = wordSet{words: []string{"-C", "--colors", "-M", "--no-colors", "-e", "--exit-status", "-n", "--null-input",
	"-N", "--no-doc", "-0", "--nul-output", "-P", "--prettyPrint", "-r", "--unwrapScalar", "-v", "--verbose",
	"-h", "--help", "-V", "--version", "--header-preprocess", "--csv-auto-parse", "--tsv-auto-parse",
	"--properties-array-brackets", "--lua-globals", "-j", "--tojson",
	// the jq wrapper (python yq): output forms
	"-y", "--yaml-output", "-Y", "--yaml-roundtrip", "-x", "--xml-output", "-t", "--toml-output",
	"-c", "--compact-output", "-S", "--sort-keys", "-R", "--raw-input", "--tab", "--indentless-lists"}}

// yqSubcommands name the expression-evaluating forms.
var yqSubcommands = wordSet{words: []string{"eval", "e", "eval-all", "ea"}}

func yqCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "queries YAML")
	rest := args[1:]
	programDone, inPlace := false, false
	var program *word
	var files []word
	judge := func(w word) {
		programDone = true
		program = &w
		if yqRisky(w.val) {
			x.add(Ask, RuleEnvPrint, "the yq expression reads the environment or a file, or evaluates text built at run time")
		}
	}
	defer func() {
		// yq takes a lone file for its argument too (yq config.yaml):
		// then the one word is judged as the path it may be.
		if program != nil && len(files) == 0 {
			x.read(*program)
		}
		for _, f := range files {
			if inPlace {
				x.write(f)
			} else {
				x.read(f)
			}
		}
	}()
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		name, _, hasVal := strings.Cut(a, "=")
		switch {
		case a == "--":
			for _, w := range rest[i+1:] {
				if !programDone {
					judge(w)
					continue
				}
				files = append(files, w)
			}
			return
		case name == "-i" || name == "--inplace" || name == "--in-place":
			inPlace = true
		case name == "-s" || name == "--split-exp" || name == "--split-exp-file":
			x.add(Ask, RuleFileWrite, "yq "+name+" writes a file per document, named by an expression or the data")
			if !hasVal {
				i++
			}
		case name == "--from-file" || name == "-f":
			// (-f is the jq wrapper's spelling)
			x.add(Ask, RuleUnseenText, "yq "+name+": an expression read from a file cannot be judged")
			if !hasVal {
				i++
			}
			programDone = true
		case name == "--expression":
			if hasVal {
				judge(word{val: a[len(name)+1:]})
			} else if i+1 < len(rest) {
				i++
				judge(rest[i])
			}
		case yqValueOpts.has(name):
			if !hasVal {
				i++
			}
		case yqFlags.has(name):
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && yqValueOpts.has(a[:2]):
			// -ojson, -oy: a short option with its value attached
		case len(a) > 1 && a[0] == '-':
			x.add(Ask, RuleUnknownCommand, "yq option "+quoteShort(a)+" is not one the policy knows")
		case !programDone && i == 0 && yqSubcommands.has(a):
		case !programDone:
			judge(rest[i])
		default:
			files = append(files, rest[i])
		}
	}
}

// yqFuncs are yq's functions that reach outside the document: the
// environment, any file, or an expression built from text at run time.
var yqFuncs = wordSet{words: []string{"env", "strenv", "envsubst", "load", "load_str", "load_xml", "load_props",
	"load_base64", "load_yaml", "load_json", "eval", "import", "include", "input_filename"}}

// yqRisky reports an expression that uses $ENV or one of yqFuncs as a
// function (not a key spelled alike: .env, ."load"); string literals are
// skipped.
func yqRisky(p string) bool {
	if strings.Contains(p, "$ENV") || jqRisky(p) {
		return true
	}
	return anyWord(p, func(tok string, prev byte) bool {
		return prev != '.' && prev != '$' && yqFuncs.has(tok)
	})
}
