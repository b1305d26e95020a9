package policy

import "testing"

// Unsafe allows found by the security review of 2026-12-05, each a class:
// the rows are spellings of it, judged with the sandbox on and off. Each
// row holds the verdict it must have: deny where the line writes the
// environment or a shell startup file (as `env > out.txt` and `echo >>
// ~/.bashrc` are), ask where it may be harmless.
var review1205 = []struct {
	cls, cmd string
	want     Decision
}{
	{"args-var", "MAVEN_ARGS=deploy mvn test", Deny}, // Maven 3.9 runs mvn deploy test (envargs.go)
	{"args-var", "MAVEN_OPTS=deploy mvn test", Deny},
	{"args-var", "GRADLE_ARGS=publish gradle build", Ask},
	{"args-var", "NPM_FLAGS=publish npm test", Ask},
	{"args-var", "TEST_OPTIONS=x make test", Ask},
	{"interp-var", "_PYTHON_SYSCONFIGDATA_NAME=evil python3 -m venv .venv", Ask},
	{"interp-var", "__PYTHON_X=evil python3 -m venv .venv", Ask},
	{"interp-var", "_RUBY_X=evil ruby -v", Ask},
	{"interp-var", "_NODE_X=evil node -v", Ask},
	{"interp-var", "_LD_X=evil ls", Deny},
	{"ruby-opt", `ruby --disable gems -e 'File.write("k.txt", ENV.to_h.to_s)'`, Deny},
	{"ruby-opt", `ruby --enable frozen-string-literal -e 'File.write("k.txt", ENV.to_h.to_s)'`, Deny},
	{"ruby-opt", `ruby --encoding utf-8 -e 'File.write("k.txt", ENV.to_h.to_s)'`, Deny},
	{"ruby-opt", `ruby --external-encoding utf-8 -e 'File.write("k.txt", ENV.to_h.to_s)'`, Deny},
	{"ruby-opt", `ruby --internal-encoding utf-8 -e 'File.write("k.txt", ENV.to_h.to_s)'`, Deny},
	{"msbuild-out", "dotnet build /bl:/home/u/.bashrc", Deny},
	{"msbuild-out", "dotnet test /binarylogger:/home/u/.profile", Deny},
	{"msbuild-out", "dotnet build -bl:/home/u/.bashrc", Deny},
	{"msbuild-out", "dotnet build /BL:/home/u/.bashrc", Deny},
	{"msbuild-out", "dotnet build -pp:/home/u/.bashrc", Deny},
	{"msbuild-out", "dotnet build -preprocess:/home/u/.bashrc", Deny},
	{"msbuild-out", "dotnet build -ts:/home/u/.bashrc", Deny},
	{"msbuild-out", "dotnet build /targets:/home/u/.bashrc", Deny},
	{"msbuild-out", "dotnet build -profileevaluation:/home/u/.bashrc", Deny},
	{"msbuild-out", "dotnet build -flp:logfile=/home/u/.bashrc", Deny},
	{"msbuild-out", "dotnet build /FLP1:LogFile=/home/u/.bashrc", Deny},
	{"msbuild-out", "dotnet build -dfl -flp:logfile=/home/u/.bashrc", Deny},
	{"composer-abbrev", "composer glob require evil/pkg", Ask},
	{"composer-abbrev", "composer self-up", Ask},
	{"composer-abbrev", "composer create evil/x", Ask},
	{"composer-abbrev", "composer exe x", Ask},
	{"composer-abbrev", "composer requ evil/pkg", Ask},
	{"composer-abbrev", "composer g:req evil/pkg", Ask},
	{"grep-newline", "env | grep $'^HOME=\\nKEY'", Ask},
	{"grep-newline", "env | grep -e $'^HOME=\\nKEY'", Ask},
	{"grep-newline", "env | grep -E $'^(HOME|PATH)=\\nTOKEN'", Ask},
	{"env-writer", "env | sort -o secrets.txt", Deny},
	{"env-writer", "env | sort --output=secrets.txt", Deny},
	{"env-writer", "env | sort -osecrets.txt", Deny},
	{"env-writer", "printenv | uniq - secrets.txt", Deny},
	{"env-writer", "env | sort | uniq -c - out.txt", Deny},
	{"env-writer", "env | awk '{print > \"o.txt\"}'", Deny},
	{"env-writer", "env | sed -n 'w o.txt'", Deny},
}

func TestReview1205Verdicts(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for _, sb := range []bool{false, true} {
		c := ctx
		c.Sandboxed = sb
		for _, r := range review1205 {
			v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: c})
			if v.Decision != r.want {
				t.Errorf("sandbox=%v %s: %q: %s by %s (%s), want %s", sb, r.cls, r.cmd, v.Decision, v.Rule, v.Reason, r.want)
			}
		}
	}
}
