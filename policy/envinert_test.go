package policy

import "testing"

// TestUnknownVariablesJudgedByValue: a variable without an entry is
// judged by its value and by what its name says it holds (envinert.go).
func TestUnknownVariablesJudgedByValue(t *testing.T) {
	checkClass(t, []classCase{
		{`XDEBUG_MODE=coverage make test`, "allow"},
		{`MSBUILDDISABLENODEREUSE=1 dotnet build`, "allow"},
		{`ANDROID_SDK_ROOT_UNUSED=1 ./gradlew test`, "!allow"}, // ROOT: a place
		{`PLAYWRIGHT_WORKERS=4 npx playwright test`, "!deny"},
		{`TEST_TIMEOUT=30s go test ./...`, "allow"},
		{`FOO_PAGER=sh git log`, "!allow"},
		{`MYTOOL=bash make`, "!allow"},
		{`BUILD_CMD=make make`, "!allow"},
		{`DOTNET_STARTUP_HOOKS=Evil dotnet run`, "!allow"},
		{`MY_CONFIG=x make`, "!allow"},
		{`SOME_URL=example make`, "!allow"},
		{`RUNNER=python3 make test`, "!allow"},
		{`X=./evil make`, "!allow"},
		{`X='a b' make`, "!allow"},
		{`X=-rf make`, "!allow"},
	})
}
