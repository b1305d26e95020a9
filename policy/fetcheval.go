package policy

import "strings"

// Inline code that fetches code and runs it: `python3 -c "exec(urlopen(URL)
// .read())"`, `node -e "fetch(URL).then(r=>r.text()).then(eval)"`, `ruby -e
// 'eval URI.open(URL).read'`, `perl -e 'use LWP::Simple; eval get(URL)'`
// are `curl URL | sh` in the interpreter's own words, and are denied as it
// is. The sign is both at once in one snippet: a network client of the
// language and its eval of a string. Either alone stays what it was
// (inline code that fetches asks; eval of local text is judged as code).

// netClientTokens are each language's ways to fetch a URL.
var netClientTokens = []string{"urlopen", "urllib", "urlretrieve", "requests.get", "requests.post", "http.client", "httpx.",
	"fetch(", "require('http", `require("http`, "from 'http", `from "http`, "https.get", "http.get", "http.request", "axios",
	"Net::HTTP", "open-uri", "URI.open", "LWP", "HTTP::Tiny", "IO::Socket", "file_get_contents('http", `file_get_contents("http`,
	"curl_exec", "Invoke-WebRequest", "DownloadString", "WebClient", "socket.socket", "TCPSocket"}

// evalIdents run a string as code.
var evalIdents = []string{"exec", "eval", "execfile", "compile", "instance_eval", "class_eval", "module_eval", "Function",
	"runInThisContext", "runInNewContext", "Invoke-Expression", "iex"}

// fetchesAndEvals reports inline code that holds both a network client and
// an eval (see above).
func fetchesAndEvals(code string) bool {
	fetches := false
	for _, t := range netClientTokens {
		if strings.Contains(code, t) {
			fetches = true
			break
		}
	}
	if !fetches {
		return false
	}
	for _, id := range evalIdents {
		if hasIdent(code, id) {
			return true
		}
	}
	return false
}

// hasIdent reports id in code as a whole identifier.
func hasIdent(code, id string) bool {
	isID := func(b byte) bool {
		return b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
	}
	for i := 0; ; {
		j := strings.Index(code[i:], id)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(id)
		if (a == 0 || !isID(code[a-1])) && (b == len(code) || !isID(code[b])) {
			return true
		}
		i = a + 1
	}
}
