package policy

import (
	"net/url"
	"path"
	"strings"
)

// Download, then run: `curl -o /tmp/x.sh URL && bash /tmp/x.sh`, `curl
// -fsSLO URL/i.sh && sh i.sh`, `wget -O- URL > x; sh x`, `wget URL/i.sh;
// . ./i.sh` are `curl URL | sh` in two steps: code from the network that
// nobody on the line has seen, run. Every file a fetcher on the line
// writes what it downloads to (-o/--output, curl's -O/--remote-name and
// wget's default of the URL's last segment, wget -O, and a > redirect of
// its standard output) is remembered; a later part that runs that file as
// a script (an interpreter, source or ., or the file as the program) is
// denied, as the one-step form is. A file the line downloads and only
// reads, or runs after the person could have looked at it (another line),
// is not this class.

// noteFetched records the files fetchCmd's download lands in.
func (x *cmdCtx) noteFetched(name string, args []word) {
	var outs []word
	remote, toStdout := false, name == "curl"
	var urls []string
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		v := a.val
		opt, val, has := strings.Cut(v, "=")
		switch {
		case v == "-o" || v == "--output" || (name == "wget" && (v == "-O" || v == "--output-document")):
			if i+1 < len(rest) {
				i++
				outs = append(outs, rest[i])
			}
			toStdout = false
		case has && (opt == "--output" || opt == "--output-document"):
			outs = append(outs, word{val: val, static: a.static})
			toStdout = false
		case name == "wget" && strings.HasPrefix(v, "-O") && len(v) > 2:
			outs = append(outs, word{val: v[2:], static: a.static})
		case name == "curl" && (v == "-O" || v == "--remote-name" || v == "--remote-name-all" || shortBundleHas(v, 'O')):
			remote, toStdout = true, false
		case name == "wget" && shortBundleHas(v, 'O') && i+1 < len(rest):
			i++
			outs = append(outs, rest[i])
		case strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "ftp://"):
			urls = append(urls, v)
		}
	}
	if name == "wget" && len(outs) == 0 {
		remote = true
	}
	for _, o := range outs {
		if o.val == "-" {
			toStdout = true
		}
	}
	if remote {
		for _, u := range urls {
			if p, err := url.Parse(u); err == nil && path.Base(p.Path) != "/" && path.Base(p.Path) != "." {
				outs = append(outs, word{val: path.Base(p.Path), static: true})
			}
		}
	}
	var paths []string
	for _, o := range outs {
		if o.static && o.val != "-" {
			paths = append(paths, x.resolve(o)...)
		}
	}
	if toStdout {
		paths = append(paths, x.part.Redirects...)
	}
	for _, p := range paths {
		if x.c.fetched == nil {
			x.c.fetched = map[string]bool{}
		}
		x.c.fetched[p] = true
	}
}

// shortBundleHas reports a bundle of short options (-fsSLO) holding c.
func shortBundleHas(v string, c byte) bool {
	if len(v) < 3 || v[0] != '-' || v[1] == '-' {
		return false
	}
	for i := 1; i < len(v); i++ {
		if !(v[i] >= 'a' && v[i] <= 'z' || v[i] >= 'A' && v[i] <= 'Z') {
			return false
		}
	}
	return strings.IndexByte(v[1:], c) >= 0
}

// ranFetched denies running w when this line downloaded it.
func (x *cmdCtx) ranFetched(w word) bool {
	if x.c.fetched == nil || !w.static {
		return false
	}
	for _, p := range x.resolve(w) {
		if x.c.fetched[p] {
			x.add(Deny, RuleWriteThenRun, "runs "+quoteShort(w.val)+", which this line downloads: code nobody has seen, as curl | sh")
			return true
		}
	}
	return false
}
