package policy

import "testing"

// TestOffAllowsReviewed (revpol, a review of off31 and polcorp16's allows
// with the sandbox off): each row was allowed off by the reviewed code.
//   - ts-node and tsx read a bundle of short options as node does: -pe
//     CODE is --print --eval CODE, inline code that -e alone asks for.
//   - kubectl get -f FILE / -k DIR / -f - reads the kinds and names from
//     a file or stdin, so a Secret there is printed with its values, as
//     `kubectl get secret` (denied) would print it.
//   - eslint --inspect-config spawns `npx @eslint/config-inspector@latest`,
//     a second fetch at a version nobody locked; turbo --cwd DIR runs the
//     package scripts of another tree (/tmp, ..).
//   - terraform show terraform.tfstate prints the state's attributes, the
//     secrets not marked sensitive in clear; `cat terraform.tfstate` asks.
//   - openout_any=a in the environment overrides texmf.cnf (kpathsea reads
//     every setting from the environment first): TeX's \openout then writes
//     anywhere, ~/.bashrc included, the premise of a plain compile gone.
//   - A TeX engine's first argument beginning with a backslash is TeX code
//     on the line (\directlua runs Lua, whose io.open and os.remove LuaTeX
//     does not restrict without --safer): inline code, not a document.
//
// Inside the sandbox the reviewed decisions stay.
func TestOffAllowsReviewed(t *testing.T) {
	checkOnOffIn(t, testEnv(t), []onOff{
		{`npx ts-node -pe 'require("child_process").execSync("id")'`, Allow, Ask},
		{`npx ts-node -ep x`, Allow, Ask},
		{`npx tsx -pe 'process.exit(0)'`, Allow, Ask},
		{`npx ts-node -T scripts/gen.ts`, Allow, Allow},
		{"npx eslint --inspect-config", Allow, Ask},
		{"npx turbo run build --cwd /tmp", Ask, Ask},
		{"npx turbo run build --cwd=..", Ask, Ask},

		{"kubectl get -f ./refs.yaml -o yaml", Allow, Ask},
		{"kubectl get --filename=refs.yaml -o jsonpath={.data}", Allow, Ask},
		{"kubectl get -k ./overlay -o yaml", Allow, Ask},
		{"kubectl get -Rf manifests/ -o yaml", Allow, Ask},
		{"kubectl get -f - -o yaml", Allow, Ask},
		{"kubectl get pods -owide", Allow, Allow},
		{"kubectl get pods -nfoo", Allow, Allow},

		{"terraform show terraform.tfstate", Allow, Ask},
		{"terraform show -no-color terraform.tfstate.backup", Allow, Ask},
		{"terraform show tfplan", Allow, Allow},

		{"openout_any=a pdflatex main.tex", Ask, Ask},
		{"openout_any=a latexmk -pdf main.tex", Ask, Ask},
		{`lualatex '\directlua{io.open(os.getenv("HOME").."/.bas".."hrc","a"):write("id")}'`, Allow, Ask},
		{`pdflatex '\input main'`, Allow, Ask},
		{"pdflatex main.tex", Allow, Allow},
		{"lualatex -interaction=nonstopmode main.tex", Allow, Allow},
	})
}
