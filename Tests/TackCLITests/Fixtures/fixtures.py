#!/usr/bin/env python3
"""Test fixtures for tack's url and pip backends (used only by the tests).

  fixtures.py serve DIR       serve DIR on 127.0.0.1 (a free port, printed first), with paths:
                              /files/NAME            the file
                              /flaky/N/NAME          500 for the first N requests, then the file
                              /truncated/NAME        the full Content-Length, half the body
                              /html/NAME             200 with a web page instead of the file
                              /slow/NAME             the file, in small pieces over ~2 seconds
                              /crawl/N/NAME          the file's headers, then one byte a second,
                                                     at most N bytes (a server that never stalls
                                                     long enough to time out, and never finishes)
                              anything else          404
                              /count/PATH            how many times PATH was requested
                              /static/PATH           a file under DIR, or a directory's index.html
                              /v2/...                503: an OCI registry that is failing (all
                                                     counted together as /count/v2-all)
                              /v2/crawl/...          a registry that answers one byte a second
  fixtures.py registry LOCATION LOG
                              a fake OCI registry on 127.0.0.1 (port printed first) that asks
                              for basic auth, has nothing, and answers an upload's POST with
                              `Location: LOCATION`; each request logged to LOG as
                              `registry METHOD PATH auth=yes|no`
  fixtures.py github TOKEN LOG
                              a stand-in for GitHub's API on 127.0.0.1 (port printed first):
                              /repos/OWNER/REPO/releases lists release 1.2.0 to a request with
                              `Authorization: Bearer TOKEN`, else answers 403 with its rate limit
                              used up; each request logged as `github METHOD PATH auth=yes|no`
  fixtures.py sink HOST LOG   a server on HOST (port printed first) that logs each request as
                              `sink METHOD PATH auth=yes|no` and accepts it (201)
  fixtures.py archive KIND OUT VERSION [HOSTILE]
                              KIND: tar.gz, tar.xz, zip, or binary; HOSTILE: dotdot, absolute,
                              symlink-escape, hardlink-outside, device, setuid, modes (0777 and
                              1777), duplicate (a second shellcheck), bomb (3 MiB of zeros)
  fixtures.py wheel NAME VERSION OUTDIR [REQUIREMENT...]
                              a pure-Python wheel whose console script NAME prints
                              "NAME VERSION" and its arguments, requiring REQUIREMENTs
  fixtures.py simple DIR      DIR/simple/<project>/index.html (PEP 503) for the wheels in DIR
  fixtures.py git-http ROOT [CERT KEY]
                              git's smart HTTP protocol for the repositories under ROOT (through
                              `git http-backend`) on 127.0.0.1 (port printed first), over TLS
                              with CERT and KEY when given
"""
import http.server, io, json, os, socketserver, stat, sys, tarfile, threading, time, zipfile

def serve(root):
    counts = {}
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send_bytes(self, body, length=None, content_type=None):
            self.send_response(200)
            if content_type:
                self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body) if length is None else length))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def do_HEAD(self):
            self.do_GET()

        def do_GET(self):
            with lock:
                counts[self.path] = counts.get(self.path, 0) + 1
                seen = counts[self.path]
            parts = self.path.strip("/").split("/")
            def data(name):
                p = os.path.join(root, name)
                return open(p, "rb").read() if os.path.isfile(p) else None
            if parts[0] == "static":
                p = os.path.join(root, *[part.split("?")[0] for part in parts[1:]])
                if os.path.isdir(p):
                    p = os.path.join(p, "index.html")
                if os.path.isfile(p):
                    self.send_bytes(open(p, "rb").read(), content_type="text/html" if p.endswith(".html") else "application/octet-stream")
                else:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
            elif parts[0] == "v2" and len(parts) > 1 and parts[1] == "crawl":
                crawl(self, 1000, 40)
            elif parts[0] == "v2":
                with lock:
                    counts["/v2-all"] = counts.get("/v2-all", 0) + 1
                self.send_response(503)
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif parts[0] == "redirect" and len(parts) > 2:
                # /redirect/HOST/REST: a 302 to REST on HOST (this server's port).
                self.send_response(302)
                self.send_header("Location", "http://%s:%d/%s" % (parts[1], self.server.server_address[1], "/".join(parts[2:])))
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif parts[0] == "loop":
                self.send_response(302)
                self.send_header("Location", "/loop")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif parts[0] == "authorization":
                self.send_bytes((self.headers.get("Authorization") or "none").encode())
            elif parts[0] == "count":
                self.send_bytes(str(counts.get("/" + "/".join(parts[1:]), 0)).encode())
            elif parts[0] == "files" and len(parts) == 2 and data(parts[1]) is not None:
                self.send_bytes(data(parts[1]))
            elif parts[0] == "flaky" and len(parts) == 3 and data(parts[2]) is not None:
                if seen <= int(parts[1]):
                    self.send_response(500)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                else:
                    self.send_bytes(data(parts[2]))
            elif parts[0] == "truncated" and len(parts) == 2 and data(parts[1]) is not None:
                body = data(parts[1])
                self.send_bytes(body[: len(body) // 2], length=len(body))
                self.close_connection = True
            elif parts[0] == "html" and len(parts) == 2:
                self.send_bytes(b"<!DOCTYPE html><html><body>Not the file you wanted</body></html>")
            elif parts[0] == "crawl" and len(parts) == 3 and data(parts[2]) is not None:
                body = data(parts[2])
                crawl(self, len(body), int(parts[1]), body)
            elif parts[0] == "slow" and len(parts) == 2 and data(parts[1]) is not None:
                body = data(parts[1])
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                step = max(1, len(body) // 20)
                for i in range(0, len(body), step):
                    self.wfile.write(body[i:i + step])
                    self.wfile.flush()
                    time.sleep(0.1)
            else:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    # Stop when the test closes our stdin (or dies).
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    server.serve_forever()

def crawl(handler, length, limit, body=None):
    """Headers for LENGTH bytes, then one byte a second, at most LIMIT of them."""
    handler.send_response(200)
    handler.send_header("Content-Length", str(length))
    handler.end_headers()
    try:
        for i in range(min(limit, length)):
            handler.wfile.write(body[i:i + 1] if body else b"x")
            handler.wfile.flush()
            time.sleep(1)
    except (BrokenPipeError, ConnectionResetError):
        pass
    handler.close_connection = True

def logging_server(host, log, name, answer):
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def handle_one(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            with lock, open(log, "a") as f:
                f.write("%s %s %s auth=%s\n" % (name, self.command, self.path, "yes" if self.headers.get("Authorization") else "no"))
            answer(self)

        do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = handle_one

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server((host, 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    server.serve_forever()

def git_http(root, cert=None, key=None):
    import ssl, subprocess

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def body(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                out = b""
                while True:
                    size = int(self.rfile.readline().strip() or b"0", 16)
                    if size == 0:
                        self.rfile.readline()
                        return out
                    out += self.rfile.read(size)
                    self.rfile.readline()
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def backend(self):
            path, _, query = self.path.partition("?")
            env = dict(os.environ, GIT_PROJECT_ROOT=root, GIT_HTTP_EXPORT_ALL="1", PATH_INFO=path, QUERY_STRING=query,
                       REQUEST_METHOD=self.command, CONTENT_TYPE=self.headers.get("Content-Type", ""), REMOTE_ADDR="127.0.0.1")
            data = self.body() if self.command == "POST" else b""
            env["CONTENT_LENGTH"] = str(len(data))
            out = subprocess.run(["git", "http-backend"], input=data, env=env, capture_output=True).stdout
            head, _, payload = out.partition(b"\r\n\r\n")
            status, headers = 200, []
            for line in head.decode().split("\r\n"):
                name, _, value = line.partition(":")
                if name.lower() == "status":
                    status = int(value.strip().split()[0])
                elif name:
                    headers.append((name, value.strip()))
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = backend

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", 0), Handler)
    if cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    server.serve_forever()

def fake_registry(location, log):
    def answer(h):
        if not h.headers.get("Authorization"):
            h.send_response(401)
            h.send_header("WWW-Authenticate", 'Basic realm="test"')
            h.send_header("Content-Length", "0")
            h.end_headers()
        elif h.command == "POST":
            h.send_response(202)
            h.send_header("Location", location)
            h.send_header("Content-Length", "0")
            h.end_headers()
        else:
            h.send_response(404)
            h.send_header("Content-Length", "0")
            h.end_headers()
    logging_server("127.0.0.1", log, "registry", answer)

def fake_github(token, log):
    def answer(h):
        if h.headers.get("Authorization") == "Bearer " + token:
            body = b'[{"tag_name": "1.2.0"}, {"tag_name": "1.1.0"}]'
            h.send_response(200)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            h.wfile.write(body)
        else:
            body = b'{"message": "API rate limit exceeded"}'
            h.send_response(403)
            h.send_header("X-RateLimit-Remaining", "0")
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            h.wfile.write(body)
    logging_server("127.0.0.1", log, "github", answer)

def sink(host, log):
    def answer(h):
        h.send_response(201)
        h.send_header("Content-Length", "0")
        h.end_headers()
    logging_server(host, log, "sink", answer)

def tool_script(version):
    return ("#!/bin/sh\necho \"shellcheck %s\"\n" % version).encode()

def add(tar, name, data=b"", mode=0o644, type=tarfile.REGTYPE, linkname=""):
    info = tarfile.TarInfo(name)
    info.type = type
    info.mode = mode
    info.linkname = linkname
    info.size = len(data) if type == tarfile.REGTYPE else 0
    if type == tarfile.CHRTYPE:
        info.devmajor, info.devminor = 1, 3
    tar.addfile(info, io.BytesIO(data) if type == tarfile.REGTYPE else None)

def artifact_bundle(out, version, variant=None):
    """SE-0305's shape: NAME.artifactbundle/ with info.json and an executable per variant.
    VARIANT: none for linux x86_64 and aarch64 and macOS arm64; macos-only; escape (a path
    out of the bundle); universal (no supportedTriples); newer (schemaVersion 2.0); hello
    (the artifact is `hello`, as GitFixture's tool builds it); hello-macos-only; hello-setuid
    (its executables carry the setuid bit); huge-info (an info.json of 2 MiB, valid JSON)."""
    tool = "hello" if variant and variant.startswith("hello") else "shellcheck"
    setuid = variant == "hello-setuid"
    if variant in ("hello-macos-only", "hello-setuid"):
        variant = "macos-only" if variant == "hello-macos-only" else None
    top = tool + ".artifactbundle"
    variants = [("x86_64-unknown-linux-gnu", "linux-x86_64"), ("aarch64-unknown-linux-gnu", "linux-aarch64"),
                ("arm64-apple-macosx", "macos-arm64")]
    if variant == "macos-only":
        variants = [("arm64-apple-macosx", "macos-arm64"), ("x86_64-apple-macosx", "macos-x86_64")]
    entries = []
    with zipfile.ZipFile(out, "w") as z:
        for triple, directory in variants:
            path = "%s-%s-%s/bin/%s" % (tool, version, directory, tool)
            info = zipfile.ZipInfo(top + "/" + path, date_time=(2024, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFREG | (0o4755 if setuid else 0o755)) << 16
            z.writestr(info, ("#!/bin/sh\necho \"%s %s (%s)\"\n" % (tool, version, triple)).encode())
            entries.append({"path": path, "supportedTriples": [triple]})
        if variant == "escape":
            entries = [{"path": "../../../../bin/sh", "supportedTriples": [t for t, _ in variants]}]
        if variant == "universal":
            entries = [{"path": entries[0]["path"]}]
        doc = {"schemaVersion": "2.0" if variant == "newer" else "1.0",
               "artifacts": {tool: {"version": version, "type": "executable", "variants": entries},
                             "docs": {"version": version, "type": "staticLibrary", "variants": []}}}
        text = json.dumps(doc, indent=2)
        if variant == "huge-info":
            text += " " * (2 << 20)
        z.writestr(zipfile.ZipInfo(top + "/info.json", date_time=(2024, 1, 1, 0, 0, 0)), text.encode())

def archive(kind, out, version, hostile=None):
    top = "shellcheck-v%s" % version
    if kind == "artifactbundle":
        artifact_bundle(out, version, hostile)
        return
    if kind == "binary":
        open(out, "wb").write(tool_script(version))
        return
    if kind == "zip":
        with zipfile.ZipFile(out, "w") as z:
            info = zipfile.ZipInfo(top + "/shellcheck")
            info.external_attr = (stat.S_IFREG | 0o755) << 16
            z.writestr(info, tool_script(version))
            z.writestr(top + "/README.txt", "read me\n")
        return
    mode = {"tar.gz": "w:gz", "tar.xz": "w:xz"}[kind]
    with tarfile.open(out, mode, format=tarfile.GNU_FORMAT) as tar:
        add(tar, top, type=tarfile.DIRTYPE, mode=0o755)
        add(tar, top + "/shellcheck", tool_script(version), mode=0o755)
        add(tar, top + "/README.txt", b"read me\n")
        if hostile == "dotdot":
            add(tar, top + "/../../../../../../tmp/tack-evil-dotdot", b"evil\n")
        elif hostile == "absolute":
            add(tar, "/tmp/tack-evil-absolute", b"evil\n")
        elif hostile == "symlink-escape":
            add(tar, top + "/link", type=tarfile.SYMTYPE, linkname="/tmp")
            add(tar, top + "/link/tack-evil-symlink", b"evil\n")
        elif hostile == "symlink-dotdot":
            add(tar, top + "/up", type=tarfile.SYMTYPE, linkname="../../../../../../../tmp")
            add(tar, top + "/up/tack-evil-symlink2", b"evil\n")
        elif hostile == "hardlink-outside":
            add(tar, top + "/passwd", type=tarfile.LNKTYPE, linkname="/etc/passwd")
        elif hostile == "device":
            add(tar, top + "/null", type=tarfile.CHRTYPE, mode=0o666)
        elif hostile == "setuid":
            add(tar, top + "/suid", tool_script(version), mode=0o4755)
        elif hostile == "modes":
            add(tar, top + "/open", tool_script(version), mode=0o777)
            add(tar, top + "/shared", type=tarfile.DIRTYPE, mode=0o1777)
            add(tar, top + "/shared/note", b"note\n", mode=0o666)
        elif hostile == "duplicate":
            add(tar, top + "/shellcheck", b"#!/bin/sh\necho replaced\n", mode=0o755)
        elif hostile == "bomb":
            add(tar, top + "/zeros", b"\0" * (3 << 20))

def pbs(root, triple, mode=None):
    """python-build-standalone's shape: a GitHub-like releases listing under
    ROOT/repos/astral-sh/python-build-standalone/releases, and under ROOT/pbs/BUILD/ each
    release's install_only archives (python/bin/python3 and pip3, scripts) and SHA256SUMS.
    MODE: tampered (3.11.7's line is wrong) or missing (SHA256SUMS lists no 3.11.7)."""
    import hashlib
    builds = {"20240101": ["3.12.1", "3.11.7"], "20240201": ["3.12.2", "3.12.1"]}
    releases = []
    for build, versions in sorted(builds.items(), reverse=True):
        d = os.path.join(root, "pbs", build)
        os.makedirs(d, exist_ok=True)
        assets, sums = [], ""
        for version in versions:
            for t in [triple, "riscv64-unknown-linux-gnu"]:
                name = "cpython-%s+%s-%s-install_only.tar.gz" % (version, build, t)
                with tarfile.open(os.path.join(d, name), "w:gz", format=tarfile.GNU_FORMAT) as tar:
                    add(tar, "python", type=tarfile.DIRTYPE, mode=0o755)
                    add(tar, "python/bin", type=tarfile.DIRTYPE, mode=0o755)
                    add(tar, "python/bin/python3", ("#!/bin/sh\necho \"Python %s (%s)\"\n" % (version, build)).encode(), mode=0o755)
                    add(tar, "python/bin/pip3", ("#!/bin/sh\necho \"pip from python %s\"\n" % version).encode(), mode=0o755)
                digest = hashlib.sha256(open(os.path.join(d, name), "rb").read()).hexdigest()
                if version == "3.11.7" and mode == "tampered":
                    digest = "0" * 64
                if not (version == "3.11.7" and mode == "missing"):
                    sums += "%s  %s\n" % (digest, name)
                assets.append({"name": name, "browser_download_url": "https://github.com/astral-sh/python-build-standalone/releases/download/%s/%s" % (build, name)})
            assets.append({"name": "cpython-%s+%s-%s-debug-full.tar.zst" % (versions[0], build, triple)})
        open(os.path.join(d, "SHA256SUMS"), "w").write(sums)
        assets.append({"name": "SHA256SUMS"})
        releases.append({"tag_name": build, "assets": assets})
    listing = os.path.join(root, "repos", "astral-sh", "python-build-standalone")
    os.makedirs(listing, exist_ok=True)
    open(os.path.join(listing, "releases"), "w").write(json.dumps(releases, indent=1))

def normalize(name):
    import re
    return re.sub(r"[-_.]+", "-", name).lower()

def wheel(name, version, outdir, requirements):
    import base64, hashlib
    # `--tag=py3-none-macosx_11_0_arm64` among the requirements: a platform wheel.
    tags = [r[len("--tag="):] for r in requirements if r.startswith("--tag=")]
    tag = tags[0] if tags else "py3-none-any"
    marker = [r[len("--marker="):] for r in requirements if r.startswith("--marker=")]
    requirements = [r for r in requirements if not r.startswith("--")]
    module = name.replace("-", "_") + "_tool"
    dist = "%s-%s" % (name.replace("-", "_"), version)
    files = {
        module + "/__init__.py": ("import sys\n\ndef main():\n    print(' '.join([%r, %r] + sys.argv[1:]))\n# %s\n" % (name, version, " ".join(marker))).encode(),
        dist + ".dist-info/METADATA": ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (name, version)
                                       + "".join("Requires-Dist: %s\n" % r for r in requirements)).encode(),
        dist + ".dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: tack-fixtures\nRoot-Is-Purelib: true\nTag: %s\n" % tag.encode(),
        dist + ".dist-info/entry_points.txt": ("[console_scripts]\n%s = %s:main\n" % (name, module)).encode(),
    }
    record = ""
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record += "%s,sha256=%s,%d\n" % (path, digest, len(data))
    record += dist + ".dist-info/RECORD,,\n"
    files[dist + ".dist-info/RECORD"] = record.encode()
    out = os.path.join(outdir, "%s-%s.whl" % (dist, tag))
    with zipfile.ZipFile(out, "w") as z:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=(2024, 1, 1, 0, 0, 0))
            z.writestr(info, data)
    print(out)

def simple(root):
    import hashlib
    projects = {}
    for f in sorted(os.listdir(root)):
        if f.endswith(".whl") or f.endswith(".tar.gz"):
            projects.setdefault(normalize(f.split("-")[0]), []).append(f)
    for project, files in projects.items():
        d = os.path.join(root, "simple", project)
        os.makedirs(d, exist_ok=True)
        links = "".join('<a href="../../%s#sha256=%s">%s</a><br/>\n' % (f, hashlib.sha256(open(os.path.join(root, f), "rb").read()).hexdigest(), f) for f in files)
        open(os.path.join(d, "index.html"), "w").write("<!DOCTYPE html><html><body>\n%s</body></html>\n" % links)

def xar(out, certificates):
    """A macOS package's shape: a xar header, its zlib table of contents with a signature
    naming `certificates` (DER files, the signer's first), and a heap."""
    import base64, struct, zlib
    certs = "".join("<X509Certificate>%s</X509Certificate>" % base64.encodebytes(open(c, "rb").read()).decode() for c in certificates)
    toc = ('<?xml version="1.0" encoding="UTF-8"?>\n<xar><toc><checksum style="sha1"><offset>0</offset><size>20</size></checksum>'
           '<signature style="RSA"><offset>20</offset><size>256</size><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data>'
           + certs + '</X509Data></KeyInfo></signature></toc></xar>\n').encode()
    packed = zlib.compress(toc)
    header = struct.pack(">4sHHQQI", b"xar!", 28, 1, len(packed), len(toc), 1)
    with open(out, "wb") as f:
        f.write(header + packed + b"\0" * 276)

if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    elif sys.argv[1] == "archive":
        archive(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else None)
    elif sys.argv[1] == "pbs":
        pbs(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    elif sys.argv[1] == "wheel":
        wheel(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif sys.argv[1] == "simple":
        simple(sys.argv[2])
    elif sys.argv[1] == "registry":
        fake_registry(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "github":
        fake_github(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "sink":
        sink(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "git-http":
        git_http(sys.argv[2], *sys.argv[3:5])
    elif sys.argv[1] == "xar":
        xar(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
