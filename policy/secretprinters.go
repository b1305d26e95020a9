package policy

import (
	"path/filepath"
	"strings"
)

// Programs that print a project's resolved secrets (issue 32, polcorp6
// U10): `docker compose config` (and docker-compose, podman compose,
// podman-compose) prints the compose file with every ${VAR} and env_file
// value filled in from .env and the files it names; inline code that
// loads a dotenv file (dotenv_values(), load_dotenv(), require('dotenv'))
// prints it. Either is a read of .env by another name, so it asks as
// `cat .env` does, whatever the sandbox: the sandbox lets the workspace's
// .env be read, and what reaches the screen reaches the model.

// composeConfigListings are the options of compose config that print only
// names (services, volumes, profiles, images, networks) or a hash, not
// the resolved configuration.
var composeConfigListings = wordSet{words: []string{"--services", "--volumes", "--profiles", "--images",
	"--networks", "--hash", "-q", "--quiet"}}

// judgeSecretPrinters asks for compose's resolved configuration.
func (x *cmdCtx) judgeSecretPrinters(args []word) {
	if len(args) < 2 {
		return
	}
	rest := args[1:]
	switch filepath.Base(args[0].val) {
	case "docker", "podman":
		i := nextWord(rest, 0)
		if i < 0 || rest[i].val != "compose" {
			return
		}
		rest = rest[i+1:]
	case "docker-compose", "podman-compose":
	default:
		return
	}
	i := nextWord(rest, 0)
	if i < 0 || rest[i].val != "config" && rest[i].val != "convert" {
		return
	}
	for _, a := range rest[i+1:] {
		if composeConfigListings.has(a.val) || strings.HasPrefix(a.val, "--hash=") {
			return
		}
	}
	x.add(Ask, RulePathReadSecret, "compose config prints the compose file with the values of .env and its env_file files filled in: a read of secrets")
}

// nextWord returns the index of the first word of ws from i on that is
// not an option, skipping the value of compose's global options that
// take one; -1 when there is none.
func nextWord(ws []word, i int) int {
	for ; i < len(ws); i++ {
		v := ws[i].val
		if !strings.HasPrefix(v, "-") {
			return i
		}
		if !strings.Contains(v, "=") && composeValueOpts.has(v) {
			i++
		}
	}
	return -1
}

// composeValueOpts are the global options of docker, podman and compose
// that take a value as the next word.
var composeValueOpts = wordSet{words: []string{"-f", "--file", "-p", "--project-name", "--env-file",
	"--profile", "--project-directory", "--ansi", "--parallel", "--progress", "-c", "--context", "-H", "--host",
	"--config", "-l", "--log-level", "--connection", "--url", "--identity", "--root", "--runroot"}}

// dotenvCode reports inline code that loads a dotenv file: what it loads
// it can print, and dotenv_values() returns the values themselves.
func dotenvCode(code string) bool {
	lc := strings.ToLower(code)
	if !strings.Contains(lc, "dotenv") {
		return false
	}
	for _, w := range []string{"dotenv_values", "load_dotenv", "find_dotenv", "get_key", "dotenv.load", "dotenv::",
		"dotenv.config", "dotenv').config", "dotenv\").config", "dotenv.parse", "dotenv').parse", "dotenv\").parse",
		"dotenvy", "dotenv.read", "dotenv.values", "dotenv.main", "dotenv/config", "dotenv::load", "dotenv.load_file"} {
		if strings.Contains(lc, w) {
			return true
		}
	}
	return false
}

// dotenvModule judges python -m dotenv, python-dotenv's command line:
// list and get print the values of .env; run runs a program with them
// (asked as the program the policy cannot see); --help and --version
// print the tool's own text.
func (x *cmdCtx) dotenvModule(name string, args []word) {
	if len(args) == 1 && (args[0].val == "--help" || args[0].val == "--version") {
		x.add(Allow, RuleReadOnly, name+" -m dotenv prints its own help")
		return
	}
	x.add(Ask, RulePathReadSecret, name+" -m dotenv reads .env and prints its values or runs a program with them: a read of secrets")
}
