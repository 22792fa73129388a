#!/usr/bin/env python3
"""A small HTTP server that misbehaves on purpose, for tensorscope's remote tests.

Serves the files of ROOT on 127.0.0.1 (a free port, printed as "PORT n" on stdout) with Range
support, and under path prefixes does what real servers do wrong:

  /files/NAME                 ranges, ETag and Last-Modified, as a good server
  /noetag/NAME                ranges, but neither ETag nor Last-Modified
  /norange/NAME               ignores Range: always 200 with the whole file
  /drop/N/NAME                the first N requests send half of their range, then close
  /flaky/N/NAME               the first N requests get 503 (Retry-After: 0)
  /changing/N/NAME            after N requests the file is another one (other bytes, other ETag)
  /stall/NAME                 sends the headers and 100 bytes of the body, then nothing
  /stallhead/NAME             accepts the request and never answers
  /gated/NAME                 ranges from the first MiB (the header) at once; any later range waits
                              until the file NAME.open exists beside NAME, so a test knows that
                              the data cannot have arrived before it says so
  /redirect/N/REST            N redirects (302), then /REST
  /otherhost/REST             302 to the same server under the name "localhost"
  /tohttp/REST                302 to http://127.0.0.1 (for an https front)
  /auth/NAME                  needs "Authorization: Bearer TOKEN" (--token): 401 without, 403 wrong
  /status/CODE                answers CODE
  absolute-form requests      ("GET http://any.host/files/NAME", as to a proxy) are served as
                              their path, and logged with "proxied": true

Every request is appended to --log as one JSON line: method, path, host, range, whether an
Authorization header came and whether it was right (never its value), status and body bytes.
"""

import argparse
import email.utils
import hashlib
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

COUNTS = {}
COUNT_LOCK = threading.Lock()
LOG_LOCK = threading.Lock()


def count(key):
    with COUNT_LOCK:
        COUNTS[key] = COUNTS.get(key, 0) + 1
        return COUNTS[key]


def parse_range(header, size):
    if not header or not header.startswith("bytes="):
        return None
    spec = header[6:].split(",")[0].strip()
    first, _, last = spec.partition("-")
    if first == "":
        n = int(last)
        return max(0, size - n), size - 1
    first = int(first)
    last = int(last) if last else size - 1
    return first, min(last, size - 1)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "scripted/1"

    def log_message(self, fmt, *args):  # quiet: the JSON log says what happened
        pass

    def record(self, status, body, **extra):
        auth = self.headers.get("Authorization")
        entry = {
            "method": self.command,
            "path": self.path_only,
            "host": self.headers.get("Host", ""),
            "range": self.headers.get("Range", ""),
            "auth": auth is not None,
            "auth_ok": auth == "Bearer " + self.server.token if self.server.token else False,
            "status": status,
            "body": body,
            "proxied": self.proxied,
        }
        entry.update(extra)
        with LOG_LOCK:
            with open(self.server.log, "a") as f:
                f.write(json.dumps(entry) + "\n")

    def send(self, status, headers, body=b"", record_body=None):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        if not any(k.lower() == "content-length" for k, _ in headers):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.record(status, len(body) if record_body is None else record_body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        target = self.path
        self.proxied = target.startswith("http://") or target.startswith("https://")
        if self.proxied:
            target = urlsplit(target).path
        self.path_only = target.split("?")[0]
        parts = self.path_only.lstrip("/").split("/")
        kind = parts[0]
        try:
            if kind == "status":
                code = int(parts[1])
                self.send(code, [("Content-Type", "text/plain")], b"status %d\n" % code)
            elif kind == "redirect":
                n = int(parts[1])
                rest = "/".join(parts[2:])
                where = "/redirect/%d/%s" % (n - 1, rest) if n > 1 else "/" + rest
                self.send(302, [("Location", where)])
            elif kind == "otherhost":
                port = self.server.server_address[1]
                self.send(302, [("Location", "http://localhost:%d/%s" % (port, "/".join(parts[1:])))])
            elif kind == "tohttp":
                self.send(302, [("Location", "http://127.0.0.1:%d/%s" % (self.server.server_address[1],
                                                                          "/".join(parts[1:])))])
            elif kind == "auth":
                auth = self.headers.get("Authorization")
                if auth is None:
                    self.send(401, [("WWW-Authenticate", 'Bearer realm="models"')], b"token needed\n")
                elif auth != "Bearer " + self.server.token:
                    self.send(403, [("Content-Type", "text/plain")], b"wrong token\n")
                else:
                    self.serve_file(parts[1], ranges=True)
            elif kind == "flaky":
                if count(self.path_only) <= int(parts[1]):
                    self.send(503, [("Retry-After", "0")], b"busy\n")
                else:
                    self.serve_file(parts[2], ranges=True)
            elif kind == "drop":
                self.serve_file(parts[2], ranges=True, drop=count(self.path_only) <= int(parts[1]))
            elif kind == "changing":
                self.serve_file(parts[2], ranges=True, other=count(self.path_only) > int(parts[1]))
            elif kind == "files":
                self.serve_file(parts[1], ranges=True)
            elif kind == "noetag":
                self.serve_file(parts[1], ranges=True, validators=False)
            elif kind == "norange":
                self.serve_file(parts[1], ranges=False)
            elif kind == "stall":
                self.serve_file(parts[1], ranges=True, stall=True)
            elif kind == "gated":
                self.wait_for_gate(parts[1])
                self.serve_file(parts[1], ranges=True)
            elif kind == "stallhead":
                self.record(0, 0)
                self.stall_forever()
            else:
                self.send(404, [("Content-Type", "text/plain")], b"no such path\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def wait_for_gate(self, name):
        wanted = parse_range(self.headers.get("Range"), 1 << 62)
        if wanted is None or wanted[0] < (1 << 20):
            return
        gate = os.path.join(self.server.root, name + ".open")
        deadline = time.monotonic() + 60
        while not os.path.exists(gate) and time.monotonic() < deadline:
            time.sleep(0.01)

    def stall_forever(self):
        # Until the client gives up and closes: then the read below returns.
        self.connection.settimeout(60)
        try:
            self.connection.recv(1)
        except OSError:
            pass
        self.close_connection = True

    def serve_file(self, name, ranges, drop=False, other=False, validators=True, stall=False):
        path = os.path.join(self.server.root, name)
        if not os.path.isfile(path):
            self.send(404, [("Content-Type", "text/plain")], b"no such file\n")
            return
        with open(path, "rb") as f:
            data = f.read()
        if other:
            # Another file of the same size: every byte flipped, so a blend is visible.
            data = bytes(b ^ 0xFF for b in data)
        size = len(data)
        stat = os.stat(path)
        headers = [("Content-Type", "application/octet-stream"), ("Accept-Ranges", "bytes" if ranges else "none")]
        if validators:
            headers.append(("ETag", '"%s"' % hashlib.sha1(data).hexdigest()[:16]))
            headers.append(("Last-Modified", email.utils.formatdate(stat.st_mtime + (7 if other else 0),
                                                                    usegmt=True)))
        wanted = parse_range(self.headers.get("Range"), size) if ranges else None
        if wanted and (wanted[0] >= size):
            self.send(416, headers + [("Content-Range", "bytes */%d" % size)])
            return
        if wanted:
            first, last = wanted
            body = data[first:last + 1]
            status = 206
            headers.append(("Content-Range", "bytes %d-%d/%d" % (first, last, size)))
        else:
            body = data
            status = 200
        if not (drop or stall):
            self.send(status, headers, body)
            return
        # Announce the whole range, send part of it, then stop.
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        sent = body[:100] if stall else body[:len(body) // 2]
        self.wfile.write(sent)
        self.wfile.flush()
        self.record(status, len(sent), cut=True)
        if stall:
            self.stall_forever()
            return
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--log", required=True)
    parser.add_argument("--token", default="")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.root = args.root
    server.log = args.log
    server.token = args.token
    print("PORT %d" % server.server_address[1], flush=True)
    # Ends when the test closes our stdin (or kills us).
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
