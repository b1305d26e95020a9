package policy

import "strings"

// Which data options of curl (and wget's, which fetchCmd shares) read a
// local file. curl reads one only where its syntax says so: -d, --data,
// --data-binary, --data-ascii and --json when the value starts with @
// (@- is stdin); --data-urlencode when the first of @ and = is @
// (name@file, @file); -F/--form when the content after name= starts with
// @ or <. --data-raw and --form-string never read one. An @ elsewhere in
// the value (a JSON body with an e-mail address) is data: sending it asks
// as data does, it is not a file upload.

// dataReadsFile reports whether tool's data option opt with value v sends
// a local file.
func dataReadsFile(tool, opt, v string) bool {
	if tool != "curl" {
		return strings.ContainsAny(v, "@<")
	}
	switch opt {
	case "--data-raw", "--form-string":
		return false
	case "--data-urlencode":
		i := strings.IndexAny(v, "@=")
		return i >= 0 && v[i] == '@'
	case "-F", "--form":
		_, content, ok := strings.Cut(v, "=")
		if !ok {
			return strings.ContainsAny(v, "@<")
		}
		return strings.HasPrefix(content, "@") || strings.HasPrefix(content, "<")
	}
	return strings.HasPrefix(v, "@")
}
