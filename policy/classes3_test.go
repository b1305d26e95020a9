package policy

import "testing"

// TestSession5Classes pins the classes fixed after the third held-out
// corpus (heldout3_*): each row is judged with the sandbox on and off.
func TestSession5Classes(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on, off := ctx, ctx
	on.Sandboxed = true
	type row struct {
		cmd     string
		on, off string // "allow", "ask", "deny", "!allow"
	}
	for _, r := range []row{
		// a compiler or checker given a processor, plugin or agent loads code
		{"javac -processorpath pout -processor Evil -d out src/T.java", "!allow", "!allow"},
		{"javac -J-javaagent:x.jar src/T.java", "!allow", "!allow"},
		{"kotlinc -Xplugin=p.jar src/a.kt", "!allow", "!allow"},
		{"javac -d out src/T.java", "allow", "allow"},
		// an MSBuild logger naming an assembly loads it into the build
		{"dotnet build -logger:Evil,/tmp/evil.dll", "!allow", "!allow"},
		{"dotnet build -l:Evil,evil.dll", "!allow", "!allow"},
		{"dotnet test --logger x.dll", "!allow", "!allow"},
		{"dotnet build -distributedlogger:Central,c.dll*Fwd,f.dll", "!allow", "!allow"},
		{"dotnet build -dl:C,c.dll", "!allow", "!allow"},
		{"dotnet test --logger:trx", "allow", "allow"},
		{"dotnet test --logger trx", "allow", "allow"},
	} {
		for _, m := range []struct {
			cx   Context
			want string
		}{{on, r.on}, {off, r.off}} {
			v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: m.cx})
			if got := v.Decision.String(); got != m.want && !(m.want == "!allow" && got != "allow") {
				t.Errorf("sandbox %v: %q: %s by %s (%s), want %s", m.cx.Sandboxed, r.cmd, got, v.Rule, v.Reason, m.want)
			}
		}
	}
}
