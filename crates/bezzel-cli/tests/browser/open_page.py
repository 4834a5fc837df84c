#!/usr/bin/env python3
"""Opens a search-tree page in headless Chromium over the DevTools protocol, clicks a node and
reports what the page shows, as one JSON object on stdout.

    open_page.py CHROMIUM PAGE.html NODE SCREENSHOT.png

Standard library only (a small WebSocket client below), so CI needs Chromium and nothing else.
The report: "errors" (uncaught exceptions and console errors), "node_count" (what the page says),
"title" and "path" (the clicked node's heading and decisions, as the page lists them) and
"drawn" (nodes drawn). crates/bezzel-cli/tests/programs/tree_page.rs runs this and checks the report against the solver.
"""

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

TIMEOUT = 60


class WebSocket:
    """Just enough of RFC 6455 for the DevTools protocol: text frames, client-side masking."""

    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("DevTools closed the connection during the handshake")
            head += chunk
        head, self.buf = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(f"DevTools refused the WebSocket: {head[:200]!r}")

    def send(self, text):
        data = text.encode()
        header = bytes([0x81])
        n = len(data)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise RuntimeError("DevTools closed the connection")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            opcode = b0 & 0x0F
            if opcode in (0x8,):
                raise RuntimeError("DevTools closed the WebSocket")
            if opcode in (0x9, 0xA):
                continue
            message += payload
            if b0 & 0x80:
                return message.decode()


class DevTools:
    def __init__(self, url):
        self.ws = WebSocket(url)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, what):
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.05)
        raise RuntimeError(f"timed out waiting for {what}")

    def errors(self):
        out = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                out.append(d.get("exception", {}).get("description") or d.get("text"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
            elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
                out.append(p["entry"]["text"])
        return out


def start_chromium(chromium, profile):
    args = [
        chromium, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--no-default-browser-check", "--disable-dev-shm-usage",
        "--window-size=1280,800",
        f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank",
    ]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"chromium exited with status {proc.returncode}")
        if os.path.exists(port_file):
            lines = open(port_file).read().split("\n")
            if len(lines) >= 2 and lines[0].strip():
                return proc, int(lines[0])
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("chromium did not open its DevTools port")


def main():
    chromium, page, node, screenshot = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    profile = tempfile.mkdtemp(prefix="bezzel-chromium-")
    proc = None
    try:
        proc, port = start_chromium(chromium, profile)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=TIMEOUT) as r:
            targets = json.load(r)
        target = next(t for t in targets if t["type"] == "page")
        dt = DevTools(target["webSocketDebuggerUrl"])
        for domain in ("Runtime", "Page", "Log"):
            dt.call(f"{domain}.enable")
        started = time.time()
        dt.call("Page.navigate", url="file://" + os.path.abspath(page))
        dt.wait_for("document.body && document.body.getAttribute('data-ready') === '1'", "the page")
        loaded = time.time() - started
        report = {
            "load_seconds": round(loaded, 3),
            "node_count": dt.evaluate("document.getElementById('node-count').textContent"),
            "drawn": dt.evaluate("window.searchTree.visible().length"),
        }
        pos = dt.evaluate(f"window.searchTree.position({node})")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            dt.call("Input.dispatchMouseEvent", type=kind, x=pos["x"], y=pos["y"],
                    button="left", buttons=1 if kind == "mousePressed" else 0, clickCount=1)
        dt.wait_for("document.getElementById('node-title') !== null", "the clicked node's panel")
        report["title"] = dt.evaluate("document.getElementById('node-title').textContent")
        report["path"] = dt.evaluate(
            "[...document.querySelectorAll('#path li')].map((e) => e.textContent)")
        report["board_cells"] = dt.evaluate("document.querySelectorAll('#board td').length")
        shot = dt.call("Page.captureScreenshot", format="png")
        with open(screenshot, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        report["errors"] = dt.errors()
        print(json.dumps(report))
    finally:
        if proc is not None:
            proc.kill()
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
