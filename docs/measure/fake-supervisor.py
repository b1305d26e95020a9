#!/usr/bin/env python3
# fake-supervisor.py PORTFILE — an OpenAI-compatible chat server for the
# measurement scripts: every turn answers one JSON object that is at once an
# allow decision, an accepting completion review and a clean adversary pass.
# It writes the port it listens on to PORTFILE and logs each turn's first
# line of system text to stderr.
import json, sys, http.server

ANSWER = json.dumps({"decision": "allow", "reason": "fine", "risk": "low",
                     "verdict": "accept", "missing": [], "findings": [], "passed": True, "probes": []})

class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(n) or b"{}")
        sysmsg = next((m.get("content") for m in body.get("messages", []) if m.get("role") == "system"), "")
        if not isinstance(sysmsg, str):
            sysmsg = json.dumps(sysmsg)
        sys.stderr.write("turn: %s\n" % sysmsg.strip().split("\n")[0][:100])
        out = json.dumps({"id": "x", "object": "chat.completion", "created": 1, "model": "fake",
                          "choices": [{"index": 0, "message": {"role": "assistant", "content": ANSWER},
                                       "finish_reason": "stop"}],
                          "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)
    def log_message(self, *a): pass

s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_address[1]))
s.serve_forever()
