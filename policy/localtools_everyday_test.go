package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLocalToolsAndCompileForms holds issue 32 item 4's .NET, Deno and
// Maven classes (polcorp7/polcorp8 everyday/dotnet, everyday/deno,
// everyday/java): a .NET local tool the project's manifest pins, or a
// usual formatter or report tool, runs inside the sandbox
// (https://learn.microsoft.com/dotnet/core/tools/local-tools-how-to-use;
// microsoft/agent-framework:dotnet/AGENTS.md runs dotnet csharpier);
// deno compile -o writes its binary, judged as a write
// (https://docs.deno.com/runtime/reference/cli/compile/); deno check,
// fmt and lint of a glob run no code (a 'Lint & Test deno' workflow: deno
// check **/*.ts); mvn exec:java runs the project's main class
// (https://www.mojohaus.org/exec-maven-plugin/java-mojo.html). dotnet's
// own commands, a tool outside the sandbox, a write outside the workspace
// and exec:exec of another program do not get through.
func TestLocalToolsAndCompileForms(t *testing.T) {
	ctx := testEnv(t)
	if err := os.MkdirAll(filepath.Join(ctx.Workspace, ".config"), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := `{"version":1,"isRoot":true,"tools":{"dotnet-sonarscanner":{"version":"9.0.0","commands":["dotnet-sonarscanner"]}}}`
	if err := os.WriteFile(filepath.Join(ctx.Workspace, ".config", "dotnet-tools.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	checkOnOffIn(t, ctx, []onOff{
		{"dotnet csharpier --check .", Allow, Ask},
		{"dotnet reportgenerator -reports:'./bin/test/results/**/coverage.cobertura.xml' -targetdir:'./bin/test/results/codecoverage/'", Allow, Ask},
		{"dotnet sonarscanner end", Allow, Ask},
		{"dotnet unknowntool --fix", Ask, Ask},
		{"dotnet user-secrets list", Ask, Ask},
		{"dotnet reportgenerator -reports:x.xml -targetdir:/etc/cov", Deny, Ask},
		{"dotnet bin/Debug/app.dll", Ask, Ask},
		{"deno compile -A -o bin/tool cli.ts", Allow, Allow},
		{"deno compile -A -o ~/bin/tool cli.ts", Deny, Deny},
		{"deno check **/*.ts", Allow, Allow},
		{"deno run **/*.ts", Ask, Ask},
		{"mvn -q exec:java -Dexec.mainClass=com.acme.tools.SchemaDump -Dexec.args=--help", Allow, Allow}, // off: the project's class (projectrunners_off.go)
		{"mvn exec:java -Dexec.mainClass=X -Dexec.executable=sh", Ask, Ask},
	})
}
