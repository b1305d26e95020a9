package policy

import (
	"path/filepath"
	"strings"
)

// Commands whose job is to decrypt and print a project's or a person's
// secrets (issue 32, pol23): `bin/rails credentials:show` decrypts
// config/credentials.yml.enc with config/master.key and prints it; `php
// artisan env:decrypt` writes .env from .env.encrypted; `sops -d`,
// `ansible-vault view`, `git-crypt unlock`, `op read`, `dotenv list`,
// `gcloud auth print-access-token`, `aws configure get
// aws_secret_access_key`, `npm config get //…/:_authToken`. Each is a
// read of a secret file by another name, so each asks as `cat .env` and
// `cat config/master.key` do, in every mode: a workspace binstub (bin/rails)
// is the project's own code inside the sandbox, but what it prints reaches
// the coder's screen and the model's next request. `kubectl get
// secret/NAME` is `kubectl get secret NAME`, which is denied.
//
// judgeSecretDecrypt runs from judgeClasses, so it sees every spelling the
// engine reduces to an argv: bin/rails, ./bin/rails, bundle exec rails, env
// and time wrappers, bash -c payloads, git crypt for git-crypt.

// secretRailsCommands are rails commands that print or open decrypted
// credentials (credentials:fetch prints one value, Rails 7.2).
var secretRailsCommands = wordSet{words: []string{"credentials:show", "credentials:edit", "credentials:diff",
	"credentials:fetch", "encrypted:show", "encrypted:edit", "secrets:show", "secrets:edit"}}

// secretArtisanCommands are Laravel artisan commands that decrypt the
// environment file, print its key or print resolved configuration.
var secretArtisanCommands = wordSet{words: []string{"env:decrypt", "env:encrypt", "config:show"}}

// secretCodeWords name secrets in code a framework runner evaluates with the
// application loaded (rails runner, artisan tinker --execute).
var secretCodeWords = []string{"credentials", "secrets", "secret_key", "master_key", "master.key", "encrypted(",
	"config('app.key", "config(\"app.key", "env(", "getenv(", "$_env", "$_server", "env["}

// secretSubcommands are other tools' sub-commands (the first words that are
// not options) that print a secret or decrypt one into the workspace.
var secretSubcommands = lazy[map[string][][]string]{build: func() map[string][][]string {
	return map[string][][]string{
		"sops":          {{"-d"}, {"--decrypt"}, {"decrypt"}, {"exec-env"}, {"exec-file"}, {"edit"}},
		"ansible-vault": {{"view"}, {"decrypt"}, {"edit"}, {"rekey"}},
		"git-crypt":     {{"unlock"}, {"export-key"}},
		"op":            {{"read"}, {"inject"}, {"run"}, {"item", "get"}, {"document", "get"}},
		"dotenv":        {{"list"}, {"get"}},
		"vault":         {{"read"}, {"kv", "get"}, {"token", "create"}, {"print", "token"}},
		"gcloud": {{"auth", "print-access-token"}, {"auth", "print-identity-token"}, {"auth", "application-default", "print-access-token"},
			{"secrets", "versions", "access"}, {"config", "config-helper"}},
		"aws": {{"configure", "get"}, {"configure", "export-credentials"}, {"sts", "get-session-token"}, {"ecr", "get-login-password"},
			{"secretsmanager", "get-secret-value"}, {"codeartifact", "get-authorization-token"}},
		"az":      {{"account", "get-access-token"}, {"keyvault", "secret", "show"}},
		"heroku":  {{"config"}, {"config:get"}},
		"pulumi":  {{"config", "--show-secrets"}, {"stack", "output", "--show-secrets"}},
		"kubectl": {{"config", "view", "--raw"}},
		"pass":    {{"show"}},
		"gpg":     {{"-d"}, {"--decrypt"}},
		"age":     {{"-d"}, {"--decrypt"}},
	}
}}

// registryTokenTools print a registry token with `config get KEY`.
var registryTokenTools = wordSet{words: []string{"npm", "pnpm", "yarn", "bun"}}

// judgeSecretDecrypt asks for a command that prints or decrypts secrets
// (see above).
func (x *cmdCtx) judgeSecretDecrypt(args []word) {
	if len(args) < 2 {
		return
	}
	prog := filepath.Base(args[0].val)
	rest := args[1:]
	if prog == "git" && args[1].val == "crypt" {
		prog, rest = "git-crypt", args[2:]
	}
	if prog == "php" && filepath.Base(args[1].val) == "artisan" {
		prog, rest = "artisan", args[2:]
	}
	words := operandVals(rest)
	switch {
	case prog == "rails" && len(words) > 0 && secretRailsCommands.has(words[0]):
		if words[0] == "credentials:diff" && hasAnyWord(rawVals(rest), "--enroll", "--disenroll") {
			return // only changes .gitattributes and the git config
		}
		x.add(Ask, RulePathReadSecret, "rails "+words[0]+" decrypts the project's credentials with config/master.key: a read of secrets")
	case prog == "rails" && len(words) > 1 && (words[0] == "runner" || words[0] == "r") && secretCode(strings.Join(words[1:], " ")):
		x.add(Ask, RulePathReadSecret, "rails runner runs code that reads the application's credentials or environment: a read of secrets")
	case (prog == "rails" && len(words) > 0 && (words[0] == "console" || words[0] == "c") || prog == "artisan" && len(words) > 0 && words[0] == "tinker") &&
		x.stdin != nil && secretCode(*x.stdin):
		x.add(Ask, RulePathReadSecret, prog+" "+words[0]+" reads code from its input that reads the application's credentials or environment: a read of secrets")
	case prog == "artisan" && len(words) > 0 && secretArtisanCommands.has(words[0]):
		x.add(Ask, RulePathReadSecret, "artisan "+words[0]+" decrypts or prints the application's environment and keys: a read of secrets")
	case prog == "artisan" && len(words) > 0 && words[0] == "tinker" && secretCode(strings.Join(rawVals(rest), " ")):
		x.add(Ask, RulePathReadSecret, "artisan tinker runs code that reads the application's keys or environment: a read of secrets")
	case prog == "kubectl" && kubectlSecretResource(words):
		x.add(Deny, "secret.kubectl-get-secret", "reads a cluster's secret values")
	case registryTokenTools.has(prog) && len(words) > 2 && words[0] == "config" && words[1] == "get" && tokenKey(words[2]):
		x.add(Ask, RulePathReadSecret, prog+" config get "+quoteShort(words[2])+" prints a registry credential")
	default:
		for _, sub := range secretSubcommands.get()[prog] {
			if hasSubcommand(rest, sub) {
				x.add(Ask, RulePathReadSecret, prog+" "+strings.Join(sub, " ")+" decrypts or prints secrets")
				return
			}
		}
	}
}

func rawVals(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.val
	}
	return out
}

func hasAnyWord(ws []string, want ...string) bool {
	for _, w := range ws {
		for _, v := range want {
			if w == v || strings.HasPrefix(w, v+"=") {
				return true
			}
		}
	}
	return false
}

// hasSubcommand reports whether sub's words appear in ws in order, each an
// exact word (an option in sub, like -d or --show-secrets, anywhere after
// the words before it).
func hasSubcommand(ws []word, sub []string) bool {
	i := 0
	for _, w := range ws {
		if i < len(sub) && w.val == sub[i] {
			i++
		}
	}
	return i == len(sub)
}

// secretCode reports code that names the application's secrets.
func secretCode(code string) bool {
	low := strings.ToLower(code)
	for _, w := range secretCodeWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// kubectlSecretResource: kubectl get naming secrets as TYPE/NAME or in a
// comma list (get secret/db, get secrets,configmaps, get secret.v1/db).
func kubectlSecretResource(words []string) bool {
	i := 0
	for i < len(words) && words[i] != "get" {
		i++ // the value of a global option (-n prod, --context x)
	}
	if i+1 >= len(words) {
		return false
	}
	for _, w := range words[i+1:] {
		for _, r := range strings.Split(w, ",") {
			r, _, _ = strings.Cut(r, "/")
			r, _, _ = strings.Cut(r, ".")
			if r == "secret" || r == "secrets" {
				return true
			}
		}
	}
	return false
}

// tokenKey: a registry configuration key that holds a credential.
func tokenKey(k string) bool {
	l := strings.ToLower(k)
	return strings.Contains(l, "auth") || strings.Contains(l, "token") || strings.Contains(l, "password") || strings.Contains(l, "_pass")
}
