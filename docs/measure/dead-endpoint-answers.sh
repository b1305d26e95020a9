#!/usr/bin/env bash
# dead-endpoint-answers.sh — issue 33 point 3 beyond a refused port: a port
# that accepts and never answers, an address that never answers (on some
# networks it answers 404 instead), the endpoint named in the agent's own
# config file, claude headless. Used by 33-check29.md.
#
#   SENTINEL=/path/to/sentinel bash docs/measure/dead-endpoint-answers.sh
# variants of the dead endpoint: a port that accepts and never answers, an address that never answers SYN,
# the endpoint named in the agent's own config file, claude headless.
set -uo pipefail
bin=${SENTINEL:?set SENTINEL to a built sentinel}
work=$(mktemp -d /tmp/dead-answers.XXXXXX)
python3 -c '
import socket,time,sys
s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(100); print(s.getsockname()[1]); sys.stdout.flush()
conns=[]
while True:
    c,_=s.accept(); conns.append(c)
' > $work/bhport &
bh=$!
trap 'kill $bh' EXIT
for _ in $(seq 50); do [ -s $work/bhport ] && break; sleep 0.1; done
bhurl=http://127.0.0.1:$(cat $work/bhport)
# An HTTP server that answers 404 to every path (a gateway's catch-all, or a
# network that answers every address), and one that has the models list but
# answers 404 to every call (a real API and a model it does not have:
# Claude Code's model_not_found, then waiting for input).
python3 -c '
import http.server,sys,json
class H(http.server.BaseHTTPRequestHandler):
    def do(self):
        n=int(self.headers.get("Content-Length") or 0); self.rfile.read(n)
        ok = self.mode=="models" and self.command=="GET" and self.path.split("?")[0].endswith("/models")
        body=json.dumps({"data":[]} if ok else {"type":"error","error":{"type":"not_found_error","message":"model: nope"}}).encode()
        self.send_response(200 if ok else 404); self.send_header("Content-Type","application/json"); self.send_header("Content-Length",str(len(body))); self.end_headers(); self.wfile.write(body)
    do_GET=do_POST=do_HEAD=do
    def log_message(self,*a): pass
for mode,f in (("all",sys.argv[2]),("models",sys.argv[3])):
    import threading
    s=http.server.ThreadingHTTPServer(("127.0.0.1",0),type("H"+mode,(H,),{}))
    s.RequestHandlerClass.mode=mode
    open(f,"w").write(str(s.server_port))
    threading.Thread(target=s.serve_forever,daemon=True).start()
import time
while True: time.sleep(3600)
' x $work/p404 $work/pmodels &
srv404=$!
trap 'kill $bh $srv404' EXIT
for _ in $(seq 50); do [ -s $work/pmodels ] && break; sleep 0.1; done
url404=http://127.0.0.1:$(cat $work/p404)
urlmodels=http://127.0.0.1:$(cat $work/pmodels)
nr=http://10.255.255.1:9
try() { local name=$1 setup=$2; shift 2
  local home=$work/home-$name proj=$work/proj-$name
  mkdir -p "$home" "$proj"; git -C "$proj" init -q; echo hi >"$proj/README"; git -C "$proj" add -A; git -C "$proj" -c user.name=t -c user.email=t@t commit -qm init
  eval "$setup"
  local t0=$(date +%s.%N)
  (cd "$proj" && timeout -s INT ${TIMEOUT:-60} env -i PATH="$PATH" HOME="$home" TERM=dumb "$@" </dev/null >"$work/$name.out" 2>&1); local rc=$?
  local secs=$(echo "$(date +%s.%N) - $t0" | bc)
  local runs=$(cd "$proj" && HOME=$home $bin runs 2>&1 | head -1)
  printf '%-22s exit %d in %5.1f s; runs: %s\n' "$name" $rc $secs "$runs"; sed 's/^/    | /' "$work/$name.out" | cut -c1-300 | tail -4
}
try claude-404 : ANTHROPIC_API_KEY=sk-dead ANTHROPIC_BASE_URL=$url404 $bin run --plain --coder claude --verify true "say hi"
try claude-headless-404 : ANTHROPIC_API_KEY=sk-dead ANTHROPIC_BASE_URL=$url404 $bin run --plain --coder claude-headless --verify true "say hi"
try codex-404 : OPENAI_API_KEY=sk-dead OPENAI_BASE_URL=$url404/v1 $bin run --plain --coder codex --verify true "say hi"
try gemini-404 : GEMINI_API_KEY=dead GOOGLE_GEMINI_BASE_URL=$url404 $bin run --plain --coder acp --verify true "say hi" -- gemini --experimental-acp
try opencode-404 : ANTHROPIC_API_KEY=sk-dead ANTHROPIC_BASE_URL=$url404 $bin run --plain --coder acp --verify true "say hi" -- opencode acp -m anthropic/claude-sonnet-4-5
if [ -n "${QUIET:-}" ]; then # the models list answers, every call 404s: the preflight passes; --plain must tell the quiet coder
try claude-model-404 : ANTHROPIC_API_KEY=sk-dead ANTHROPIC_BASE_URL=$urlmodels $bin run --plain --coder claude --verify true "say hi"
fi
[ -n "${ONLY404:-}" ] && { echo "# kept $work"; exit 0; }
try claude-blackhole : ANTHROPIC_API_KEY=sk-dead ANTHROPIC_BASE_URL=$bhurl $bin run --plain --coder claude --verify true "say hi"
try claude-headless-bh : ANTHROPIC_API_KEY=sk-dead ANTHROPIC_BASE_URL=$bhurl $bin run --plain --coder claude-headless --verify true "say hi"
try codex-blackhole : OPENAI_API_KEY=sk-dead OPENAI_BASE_URL=$bhurl/v1 $bin run --plain --coder codex --verify true "say hi"
try codex-nonroutable : OPENAI_API_KEY=sk-dead OPENAI_BASE_URL=$nr/v1 $bin run --plain --coder codex --verify true "say hi"
try claude-nonroutable : ANTHROPIC_API_KEY=sk-dead ANTHROPIC_BASE_URL=$nr $bin run --plain --coder claude --verify true "say hi"
try gemini-blackhole : GEMINI_API_KEY=dead GOOGLE_GEMINI_BASE_URL=$bhurl $bin run --plain --coder acp --verify true "say hi" -- gemini --experimental-acp
try claude-settings 'mkdir -p $home/.claude; printf "{\"env\":{\"ANTHROPIC_BASE_URL\":\"%s\"}}" $bhurl > $home/.claude/settings.json' ANTHROPIC_API_KEY=sk-dead $bin run --plain --coder claude --verify true "say hi"
try codex-config 'mkdir -p $home/.codex; printf "model_provider = \"dead\"\nmodel = \"gpt-5\"\n[model_providers.dead]\nname = \"dead\"\nbase_url = \"%s/v1\"\nenv_key = \"DEAD_KEY\"\nwire_api = \"responses\"\n" $bhurl > $home/.codex/config.toml' DEAD_KEY=sk-dead $bin run --plain --coder codex --verify true "say hi"
try opencode-config 'mkdir -p $home/.config/opencode; printf "{\"model\":\"anthropic/claude-sonnet-4-5\",\"provider\":{\"anthropic\":{\"options\":{\"baseURL\":\"%s\"}}}}" $bhurl > $home/.config/opencode/opencode.json' ANTHROPIC_API_KEY=sk-dead $bin run --plain --coder acp --verify true "say hi" -- opencode acp
echo "# kept $work"
