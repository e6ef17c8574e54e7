#!/usr/bin/env python3
"""A token service for CNCF Distribution's token auth (used only by tack's tests).

  registry_token.py DIR USER PASSWORD ISSUER

Makes an RSA key and a self-signed certificate in DIR (DIR/cert.pem is the registry's
`rootcertbundle`), then serves GET /token on 127.0.0.1 (a free port, printed first) as Docker's
token spec says: Basic auth with USER:PASSWORD earns a JWT (RS256, `kid` in libtrust's form)
granting the scope asked for; anything else is 401. /count says how many tokens were asked
for. Stops when stdin closes.
"""
import base64, hashlib, http.server, json, os, socketserver, subprocess, sys, threading, time, urllib.parse, uuid

root, user, password, issuer = sys.argv[1:5]
key, cert = os.path.join(root, "key.pem"), os.path.join(root, "cert.pem")
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                "-days", "2", "-subj", "/CN=tack-test-token"], check=True, capture_output=True)
der = subprocess.run(["openssl", "pkey", "-in", key, "-pubout", "-outform", "DER"], check=True, capture_output=True).stdout
# libtrust's key ID: the first 240 bits of the SHA-256 of the DER public key, base32, in 4s.
b32 = base64.b32encode(hashlib.sha256(der).digest()[:30]).decode().rstrip("=")
kid = ":".join(b32[i:i + 4] for i in range(0, len(b32), 4))
asked = [0]


def b64(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def token(service, scope):
    access = []
    if scope:
        kind, name, actions = scope.split(":")
        access.append({"type": kind, "name": name, "actions": actions.split(",")})
    now = int(time.time())
    header = b64(json.dumps({"typ": "JWT", "alg": "RS256", "kid": kid}).encode())
    claims = b64(json.dumps({"iss": issuer, "sub": user, "aud": service, "exp": now + 300, "nbf": now - 10,
                             "iat": now, "jti": str(uuid.uuid4()), "access": access}).encode())
    signed = (header + "." + claims).encode()
    signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=signed, check=True, capture_output=True).stdout
    return header + "." + claims + "." + b64(signature)


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        if url.path == "/count":
            return self.reply(200, str(asked[0]).encode())
        if url.path != "/token":
            return self.reply(404, b"{}")
        asked[0] += 1
        expected = "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()
        if self.headers.get("Authorization") != expected:
            return self.reply(401, b'{"details":"wrong credentials"}')
        query = urllib.parse.parse_qs(url.query)
        self.reply(200, json.dumps({"token": token(query.get("service", [""])[0], query.get("scope", [""])[0])}).encode())


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
server.serve_forever()
