#!/usr/bin/env python3
"""A Sigstore instance of the test's own: a certificate authority (Fulcio's part), a
transparency log (Rekor v1's) and a certificate transparency log, whose trusted root tack is
given with TACK_SIGSTORE_TRUSTED_ROOT, and keyless bundles made with it for any file, as
`cosign sign-blob --bundle` writes them for a GitHub Actions workflow.

  sigstore.py init DIR
      keys and DIR/trusted_root.json
  sigstore.py sign DIR FILE OUT [--identity URI] [--issuer URL] [--time UNIX] [--tamper WHAT]
                                [--dsse PREDICATE_TYPE] [--repository URI]
      OUT: a v0.3 bundle signing FILE (a message signature, a hashedrekord 0.0.1 entry with
      its signed promise, an inclusion proof and checkpoint, the certificate's SCT). WHAT makes
      it hostile: artifact (signs other bytes), log-entry (the entry records another digest),
      promise (the signed promise is another's), time (integrated after the certificate
      expired), untrusted-ca (a certificate authority the root does not list). With --dsse,
      a DSSE envelope of an in-toto statement of that predicate type whose subject is FILE,
      logged as a dsse 0.0.1 entry: a GitHub artifact attestation's shape. --repository sets
      the certificate's SourceRepositoryURI (default https://github.com/acme/tool).

Uses the `cryptography` package (Debian's python3-cryptography).
"""
import base64
import datetime
import hashlib
import json
import os
import struct
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, ObjectIdentifier

ISSUER_OID = ObjectIdentifier("1.3.6.1.4.1.57264.1.8")
SOURCE_REPOSITORY_OID = ObjectIdentifier("1.3.6.1.4.1.57264.1.12")
SOURCE_REF_OID = ObjectIdentifier("1.3.6.1.4.1.57264.1.14")
SCT_OID = ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")
DEFAULT_IDENTITY = "https://github.com/acme/tool/.github/workflows/release.yml@refs/tags/v1.0.0"
DEFAULT_ISSUER = "https://token.actions.githubusercontent.com"
T0 = 1767225600  # 2026-01-01T00:00:00Z: every test signs at a fixed time.


def b64(data):
    return base64.b64encode(data).decode()


def spki(key):
    return key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def key_to_pem(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def load_key(path):
    with open(path, "rb") as f:
        return serialization.load_pem_private_key(f.read(), None)


def when(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def ca_certificate(key, name):
    subject = x509.Name([x509.NameAttribute(x509.oid.NameOID.ORGANIZATION_NAME, "tack-test"),
                         x509.NameAttribute(x509.oid.NameOID.COMMON_NAME, name)])
    start = datetime.datetime.fromtimestamp(T0 - 365 * 86400, datetime.timezone.utc)
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(start)
            .not_valid_after(start + datetime.timedelta(days=3650))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
            .sign(key, hashes.SHA256()))


def init(directory):
    os.makedirs(directory, exist_ok=True)
    keys = {name: ec.generate_private_key(ec.SECP256R1()) for name in ("ca", "log", "ct", "rogue")}
    for name, key in keys.items():
        with open(os.path.join(directory, name + ".pem"), "wb") as f:
            f.write(key_to_pem(key))
    for name in ("ca", "rogue"):
        with open(os.path.join(directory, name + ".crt"), "wb") as f:
            f.write(ca_certificate(keys[name], name).public_bytes(serialization.Encoding.DER))
    ca = open(os.path.join(directory, "ca.crt"), "rb").read()
    start = when(T0 - 365 * 86400)

    def log(key, url):
        return {"baseUrl": url, "hashAlgorithm": "SHA2_256",
                "publicKey": {"rawBytes": b64(spki(key)), "keyDetails": "PKIX_ECDSA_P256_SHA_256", "validFor": {"start": start}},
                "logId": {"keyId": b64(hashlib.sha256(spki(key)).digest())}}

    root = {"mediaType": "application/vnd.dev.sigstore.trustedroot+json;version=0.1",
            "tlogs": [log(keys["log"], "https://rekor.tack.test")],
            "certificateAuthorities": [{"subject": {"organization": "tack-test", "commonName": "ca"}, "uri": "https://fulcio.tack.test",
                                        "certChain": {"certificates": [{"rawBytes": b64(ca)}]}, "validFor": {"start": start}}],
            "ctlogs": [log(keys["ct"], "https://ctfe.tack.test")],
            "timestampAuthorities": []}
    with open(os.path.join(directory, "trusted_root.json"), "w") as f:
        json.dump(root, f, indent=2)


def utf8_string(text):
    value = text.encode()
    return bytes([0x0C]) + der_length(len(value)) + value


def leaf_certificate(directory, leaf_key, identity, issuer, t, ca_name, repository):
    ca_key = load_key(os.path.join(directory, ca_name + ".pem"))
    ca = x509.load_der_x509_certificate(open(os.path.join(directory, ca_name + ".crt"), "rb").read())
    start = datetime.datetime.fromtimestamp(t - 60, datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(x509.Name([])).issuer_name(ca.subject).public_key(leaf_key.public_key())
               .serial_number(x509.random_serial_number()).not_valid_before(start).not_valid_after(start + datetime.timedelta(minutes=10))
               .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
               .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), critical=False)
               .add_extension(x509.SubjectAlternativeName([x509.UniformResourceIdentifier(identity)]), critical=True)
               # DER UTF8Strings, as Fulcio writes 1.3.6.1.4.1.57264.1.8 and later.
               .add_extension(x509.UnrecognizedExtension(ISSUER_OID, utf8_string(issuer)), critical=False)
               .add_extension(x509.UnrecognizedExtension(SOURCE_REPOSITORY_OID, utf8_string(repository)), critical=False)
               .add_extension(x509.UnrecognizedExtension(SOURCE_REF_OID, utf8_string("refs/tags/v1.0.0")), critical=False))
    # The SCT signs the certificate as it is without the SCT list (RFC 6962's precertificate).
    precert = builder.sign(ca_key, hashes.SHA256())
    tbs = precert.tbs_certificate_bytes
    ct_key = load_key(os.path.join(directory, "ct.pem"))
    log_id = hashlib.sha256(spki(ct_key)).digest()
    ms = t * 1000
    issuer_key_hash = hashlib.sha256(ca.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)).digest()
    signed = (struct.pack(">BBQH", 0, 0, ms, 1) + issuer_key_hash + struct.pack(">I", len(tbs))[1:] + tbs + struct.pack(">H", 0))
    signature = ct_key.sign(signed, ec.ECDSA(hashes.SHA256()))
    sct = struct.pack(">B", 0) + log_id + struct.pack(">QH", ms, 0) + struct.pack(">BBH", 4, 3, len(signature)) + signature
    sct_list = struct.pack(">H", len(sct) + 2) + struct.pack(">H", len(sct)) + sct
    octets = bytes([0x04]) + der_length(len(sct_list)) + sct_list
    return builder.add_extension(x509.UnrecognizedExtension(SCT_OID, octets), critical=False).sign(ca_key, hashes.SHA256())


def der_length(n):
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def sign(directory, path, out, identity=DEFAULT_IDENTITY, issuer=DEFAULT_ISSUER, t=T0, tamper=None, dsse=None,
         repository="https://github.com/acme/tool"):
    data = open(path, "rb").read()
    digest = hashlib.sha256(data).digest()
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    cert = leaf_certificate(directory, leaf_key, identity, issuer, t, "rogue" if tamper == "untrusted-ca" else "ca", repository)
    pem = cert.public_bytes(serialization.Encoding.PEM)
    if dsse:
        subject = hashlib.sha256(b"another artifact").digest() if tamper == "artifact" else digest
        statement = {"_type": "https://in-toto.io/Statement/v1", "subject": [{"name": os.path.basename(path), "digest": {"sha256": subject.hex()}}],
                     "predicateType": dsse, "predicate": {"buildDefinition": {"buildType": "https://actions.github.io/buildtypes/workflow/v1"}}}
        payload = json.dumps(statement).encode()
        payload_type = "application/vnd.in-toto+json"
        pae = b"DSSEv1 %d %s %d %s" % (len(payload_type), payload_type.encode(), len(payload), payload)
        signature = leaf_key.sign(pae, ec.ECDSA(hashes.SHA256()))
        envelope = {"payload": b64(payload), "payloadType": payload_type, "signatures": [{"sig": b64(signature)}]}
        logged_payload = b"another payload" if tamper == "log-entry" else payload
        body = {"apiVersion": "0.0.1", "kind": "dsse",
                "spec": {"envelopeHash": {"algorithm": "sha256", "value": hashlib.sha256(json.dumps(envelope).encode()).hexdigest()},
                         "payloadHash": {"algorithm": "sha256", "value": hashlib.sha256(logged_payload).hexdigest()},
                         "signatures": [{"signature": b64(signature), "verifier": b64(pem)}]}}
        content = {"dsseEnvelope": envelope}
        kind = "dsse"
    else:
        signed_data = data + b"tampered" if tamper == "artifact" else data
        signature = leaf_key.sign(signed_data, ec.ECDSA(hashes.SHA256()))
        logged_digest = hashlib.sha256(b"another artifact").digest() if tamper == "log-entry" else digest
        body = {"apiVersion": "0.0.1", "kind": "hashedrekord",
                "spec": {"data": {"hash": {"algorithm": "sha256", "value": logged_digest.hex()}},
                         "signature": {"content": b64(signature), "publicKey": {"content": b64(pem)}}}}
        content = {"messageSignature": {"messageDigest": {"algorithm": "SHA2_256", "digest": b64(digest)}, "signature": b64(signature)}}
        kind = "hashedrekord"
    body = json.dumps(body, separators=(",", ":"), sort_keys=True).encode()
    log_key = load_key(os.path.join(directory, "log.pem"))
    log_id = hashlib.sha256(spki(log_key)).digest()
    integrated = t + 3600 if tamper == "time" else t
    promise = '{"body":"%s","integratedTime":%d,"logID":"%s","logIndex":%d}' % (b64(body), integrated, log_id.hex(), 0)
    set_signature = log_key.sign((promise + ("x" if tamper == "promise" else "")).encode(), ec.ECDSA(hashes.SHA256()))
    # A tree of one entry: the proof is empty, the root is the leaf's hash.
    root_hash = hashlib.sha256(b"\x00" + body).digest()
    note = "rekor.tack.test - 1\n1\n%s\n" % b64(root_hash)
    note_signature = log_key.sign(note.encode(), ec.ECDSA(hashes.SHA256()))
    checkpoint = note + "\n\u2014 rekor.tack.test %s\n" % b64(log_id[:4] + note_signature)
    bundle = {
        "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
        "verificationMaterial": {
            "certificate": {"rawBytes": b64(cert.public_bytes(serialization.Encoding.DER))},
            "tlogEntries": [{
                "logIndex": "0", "logId": {"keyId": b64(log_id)}, "kindVersion": {"kind": kind, "version": "0.0.1"},
                "integratedTime": str(integrated), "inclusionPromise": {"signedEntryTimestamp": b64(set_signature)},
                "inclusionProof": {"logIndex": "0", "rootHash": b64(root_hash), "treeSize": "1", "hashes": [], "checkpoint": {"envelope": checkpoint}},
                "canonicalizedBody": b64(body)}]},
    }
    bundle.update(content)
    with open(out, "w") as f:
        json.dump(bundle, f)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["init"] and len(args) == 2:
        init(args[1])
    elif args[:1] == ["sign"] and len(args) >= 4:
        options = dict(zip(args[4::2], args[5::2]))
        sign(args[1], args[2], args[3], identity=options.get("--identity", DEFAULT_IDENTITY), issuer=options.get("--issuer", DEFAULT_ISSUER),
             t=int(options.get("--time", T0)), tamper=options.get("--tamper"), dsse=options.get("--dsse"),
             repository=options.get("--repository", "https://github.com/acme/tool"))
    else:
        sys.exit(__doc__)
