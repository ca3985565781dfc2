import json, subprocess, sys, time
binary, path = sys.argv[1], sys.argv[2]
text = open(path).read()
uri = "file://" + path
p = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def send(m):
    b = json.dumps(m).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
def rss():
    for l in open(f"/proc/{p.pid}/status"):
        if l.startswith("VmRSS"): return int(l.split()[1])
send({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})
send({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":uri,"languageId":"arbiter","version":1,"text":text}}})
marks = {}
t0 = time.time()
for i in range(1, 10001):
    # type a character into a comment and take it back, alternately
    t = text + ("# edit %d\n" % i if i % 2 else "")
    send({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":uri,"version":i+1},"contentChanges":[{"text":t}]}})
    if i in (1000, 5000, 10000):
        p.stdin.flush(); time.sleep(1.0); marks[i] = rss()
p.stdin.flush()
print("rss KiB after edits:", marks, "seconds:", round(time.time()-t0,1))
send({"jsonrpc":"2.0","id":2,"method":"shutdown"}); send({"jsonrpc":"2.0","method":"exit"}); p.stdin.close(); p.wait()
