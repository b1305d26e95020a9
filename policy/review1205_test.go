package policy

import "testing"

// Unsafe allows found by the security review of 2026-12-05, each a class:
// the rows are spellings of it, judged with the sandbox on and off.
var review1205 = []struct {
	cls, cmd string
}{
	{"args-var", "MAVEN_ARGS=deploy mvn test"},
	{"args-var", "MAVEN_OPTS=deploy mvn test"},
	{"args-var", "GRADLE_ARGS=publish gradle build"},
	{"args-var", "NPM_FLAGS=publish npm test"},
	{"args-var", "TEST_OPTIONS=x make test"},
	{"interp-var", "_PYTHON_SYSCONFIGDATA_NAME=evil python3 -m venv .venv"},
	{"interp-var", "__PYTHON_X=evil python3 -m venv .venv"},
	{"interp-var", "_RUBY_X=evil ruby -v"},
	{"interp-var", "_NODE_X=evil node -v"},
	{"interp-var", "_LD_X=evil ls"},
	{"ruby-opt", `ruby --disable gems -e 'File.write("k.txt", ENV.to_h.to_s)'`},
	{"ruby-opt", `ruby --enable frozen-string-literal -e 'File.write("k.txt", ENV.to_h.to_s)'`},
	{"ruby-opt", `ruby --encoding utf-8 -e 'File.write("k.txt", ENV.to_h.to_s)'`},
	{"ruby-opt", `ruby --external-encoding utf-8 -e 'File.write("k.txt", ENV.to_h.to_s)'`},
	{"ruby-opt", `ruby --internal-encoding utf-8 -e 'File.write("k.txt", ENV.to_h.to_s)'`},
	{"msbuild-out", "dotnet build /bl:/home/u/.bashrc"},
	{"msbuild-out", "dotnet test /binarylogger:/home/u/.profile"},
	{"msbuild-out", "dotnet build -bl:/home/u/.bashrc"},
	{"msbuild-out", "dotnet build /BL:/home/u/.bashrc"},
	{"msbuild-out", "dotnet build -pp:/home/u/.bashrc"},
	{"msbuild-out", "dotnet build -preprocess:/home/u/.bashrc"},
	{"msbuild-out", "dotnet build -ts:/home/u/.bashrc"},
	{"msbuild-out", "dotnet build /targets:/home/u/.bashrc"},
	{"msbuild-out", "dotnet build -profileevaluation:/home/u/.bashrc"},
	{"msbuild-out", "dotnet build -flp:logfile=/home/u/.bashrc"},
	{"msbuild-out", "dotnet build /FLP1:LogFile=/home/u/.bashrc"},
	{"msbuild-out", "dotnet build -dfl -flp:logfile=/home/u/.bashrc"},
	{"composer-abbrev", "composer glob require evil/pkg"},
	{"composer-abbrev", "composer self-up"},
	{"composer-abbrev", "composer create evil/x"},
	{"composer-abbrev", "composer exe x"},
	{"composer-abbrev", "composer requ evil/pkg"},
	{"composer-abbrev", "composer g:req evil/pkg"},
	{"grep-newline", "env | grep $'^HOME=\\nKEY'"},
	{"grep-newline", "env | grep -e $'^HOME=\\nKEY'"},
	{"grep-newline", "env | grep -E $'^(HOME|PATH)=\\nTOKEN'"},
	{"env-writer", "env | sort -o secrets.txt"},
	{"env-writer", "env | sort --output=secrets.txt"},
	{"env-writer", "env | sort -osecrets.txt"},
	{"env-writer", "printenv | uniq - secrets.txt"},
	{"env-writer", "env | sort | uniq -c - out.txt"},
	{"env-writer", "env | awk '{print > \"o.txt\"}'"},
	{"env-writer", "env | sed -n 'w o.txt'"},
}

func TestReview1205NeverAllows(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for _, sb := range []bool{false, true} {
		c := ctx
		c.Sandboxed = sb
		for _, r := range review1205 {
			v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: c})
			if v.Decision == Allow {
				t.Errorf("sandbox=%v %s: %q ALLOWED by %s: %s", sb, r.cls, r.cmd, v.Rule, v.Reason)
			}
		}
	}
}
