package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSubcommandHomonyms: a tool's verb that shares its name with a denied
// program (init, route, service, at, batch) is not read as that program
// among an unknown tool's arguments (homonyms.go); where a runner puts its
// command, with that program's arguments, it still is.
func TestSubcommandHomonyms(t *testing.T) {
	checkOnOff(t, []onOff{
		{"ansible-galaxy role init roles/nginx", Ask, Ask},
		{"ansible-galaxy collection init acme.tools", Ask, Ask},
		{"ansible-galaxy init roles/nginx", Ask, Ask},
		{"opam init --bare", Ask, Ask},
		{"fly2 service list", Ask, Ask},
		{"mytool route list", Ask, Ask},
		{"mytool at 10:00", Deny, Deny}, // at's own shape: still a runner's command
		// Still denied: the program where a runner puts it, with its arguments.
		{"xcrun init 0", Deny, Deny},
		{"foo exec -- init 6", Deny, Deny},
		{"caffeinate telinit 1", Deny, Deny},
		{"caffeinate route add default gw 10.0.0.1", Deny, Deny},
		{"xcrun rm -rf ~", Deny, Deny},
		{"mytool project rm -rf ~", Deny, Deny},
	})
}

// TestDataConfigLinters: linters and formatters whose configuration is data
// (gdtoolkit's gdformat/gdlint, checkmake, editorconfig-checker) are
// project tools; their paths stay in the workspace.
func TestDataConfigLinters(t *testing.T) {
	checkOnOff(t, []onOff{
		{"gdformat --check scripts/", Allow, Allow},
		{"gdlint scripts/", Allow, Allow},
		{"checkmake Makefile", Allow, Allow},
		{"editorconfig-checker", Allow, Allow},
		{"gdformat ~/.bashrc", Ask, Ask},
		{"checkmake /etc/passwd", Ask, Ask},
	})
}

// TestWorkspaceVars: a variable the runner set to the workspace
// (Context.WorkspaceVars, CLAUDE_PROJECT_DIR) is the workspace root: cd to
// it and the paths under it are known; without the runner's word it stays
// unknown, and a line that assigns it is judged by its own value.
func TestWorkspaceVars(t *testing.T) {
	ctx := testEnv(t)
	known := ctx
	known.WorkspaceVars = []string{"CLAUDE_PROJECT_DIR"}
	checkOnOffIn(t, known, []onOff{
		{`cd "$CLAUDE_PROJECT_DIR" && go test ./...`, Allow, Allow},
		{`cd "${CLAUDE_PROJECT_DIR}" && ls -la`, Allow, Allow},
		{`cat "$CLAUDE_PROJECT_DIR/README.md"`, Allow, Allow},
		{`cd "$CLAUDE_PROJECT_DIR/.." && rm -rf *`, Deny, Deny},
		{`rm -rf "$CLAUDE_PROJECT_DIR/.git"`, Deny, Deny},
		{`CLAUDE_PROJECT_DIR=/ && cd "$CLAUDE_PROJECT_DIR" && rm -rf etc`, Deny, Deny},
		{`cd "$OTHER_PROJECT_DIR" && go test ./...`, Ask, Ask},
	})
	checkOnOffIn(t, ctx, []onOff{
		{`cd "$CLAUDE_PROJECT_DIR" && go test ./...`, Ask, Ask},
	})
}

// TestPrismaMigrateDevAsks: npx prisma migrate dev applies (and may reset)
// the development database DATABASE_URL names. Inside the sandbox (its
// proxy gates the host) it is allowed; with the sandbox off it asks, as
// migrate deploy does, even where the project declares prisma. It was
// denied only by reading its --name init value as /sbin/init
// (homonyms.go), which hid this.
func TestPrismaMigrateDevAsks(t *testing.T) {
	ctx := testEnv(t)
	if err := os.WriteFile(filepath.Join(ctx.Workspace, "package.json"), []byte(`{"devDependencies":{"prisma":"^5.0.0"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	checkOnOffIn(t, ctx, []onOff{
		{"npx prisma migrate dev --name init", Allow, Ask},
		{"npx prisma migrate dev", Allow, Ask},
		{"npx prisma migrate deploy", Ask, Ask},
	})
}
