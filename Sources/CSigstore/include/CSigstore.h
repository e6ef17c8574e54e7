// What verifying a Sigstore bundle needs of OpenSSL's libcrypto (3.0 or later), as plain C
// functions over DER bytes: signatures, certificates and their paths at a given time, the
// certificate transparency timestamps a certificate embeds, and RFC 3161 timestamps. Swift
// cannot call OpenSSL's macros and stacks as written; everything else (JSON, the logs' proofs,
// policy) is Swift, in Sources/Sigstore.
//
// Buffers: a function that fills `out` returns the length written, -2 when `cap` is too small,
// -1 when the input cannot be read.
#ifndef CSIGSTORE_H
#define CSIGSTORE_H

#include <stddef.h>
#include <stdint.h>

/// Digests, by number (never a name the caller spells).
enum { TACK_MD_DEFAULT = 0, TACK_MD_SHA256 = 1, TACK_MD_SHA384 = 2, TACK_MD_SHA512 = 3 };

/// Kinds of public key.
enum { TACK_KEY_UNKNOWN = 0, TACK_KEY_EC_P256 = 1, TACK_KEY_EC_P384 = 2, TACK_KEY_EC_P521 = 3, TACK_KEY_ED25519 = 4, TACK_KEY_RSA = 5 };

/// The digest of `data` into `out` (32, 48 or 64 bytes); its length, or -1.
int tack_digest(int md, const uint8_t *data, size_t len, uint8_t out[64]);

/// The kind of key a DER SubjectPublicKeyInfo holds, or -1 when it is not one.
int tack_sig_key_kind(const uint8_t *spki, size_t spki_len);

/// Checks `sig` over `msg` with the key (DER SubjectPublicKeyInfo). `md` DEFAULT is the key's
/// own: SHA-256 for P-256 and RSA, SHA-384 for P-384, SHA-512 for P-521, none for Ed25519.
/// `rsa_pss` selects PSS padding for RSA. 1 valid, 0 not, -1 the key cannot be used.
int tack_sig_verify_message(const uint8_t *spki, size_t spki_len, int md, int rsa_pss,
                            const uint8_t *msg, size_t msg_len, const uint8_t *sig, size_t sig_len);

/// Checks `sig` over an already computed digest (ECDSA and RSA only). 1, 0 or -1 as above.
int tack_sig_verify_digest(const uint8_t *spki, size_t spki_len, int md,
                           const uint8_t *digest, size_t digest_len, const uint8_t *sig, size_t sig_len);

/// A PEM `PUBLIC KEY` (or `RSA PUBLIC KEY`) as DER SubjectPublicKeyInfo.
long tack_sig_pem_public_key(const char *pem, size_t pem_len, uint8_t *out, size_t cap);

/// A PEM `CERTIFICATE` as DER.
long tack_sig_pem_certificate(const char *pem, size_t pem_len, uint8_t *out, size_t cap);

/// A PKCS #1 RSAPublicKey (DER) as a SubjectPublicKeyInfo.
long tack_sig_pkcs1_rsa_public_key(const uint8_t *der, size_t der_len, uint8_t *out, size_t cap);

/// Whether `der` is exactly one X.509 certificate (no trailing bytes). 1 or 0.
int tack_cert_parses(const uint8_t *der, size_t der_len);

/// The certificate's SubjectPublicKeyInfo.
long tack_cert_public_key(const uint8_t *der, size_t der_len, uint8_t *out, size_t cap);

/// Its validity, in seconds since the epoch. 0, or -1.
int tack_cert_validity(const uint8_t *der, size_t der_len, int64_t *not_before, int64_t *not_after);

/// Whether it is a CA (basic constraints), 1 or 0; -1 when unreadable.
int tack_cert_is_ca(const uint8_t *der, size_t der_len);

/// Whether it may sign code: key usage digitalSignature (when present) and extended key usage
/// codeSigning. 1 or 0; -1 when unreadable.
int tack_cert_may_sign_code(const uint8_t *der, size_t der_len);

/// The first subject alternative name of a kind: 1 URI, 2 e-mail; `kind` 3 is the otherName
/// 1.3.6.1.4.1.57264.1.7 (a username). Its text, or -1 when there is none.
long tack_cert_alt_name(const uint8_t *der, size_t der_len, int kind, char *out, size_t cap);

/// The value (the extension's OCTET STRING contents) of the extension with this dotted OID.
long tack_cert_extension(const uint8_t *der, size_t der_len, const char *oid, uint8_t *out, size_t cap);

/// The contents of a DER UTF8String (what Fulcio's newer extensions hold).
long tack_der_utf8_string(const uint8_t *der, size_t der_len, char *out, size_t cap);

/// Checks the path from `leaf` through `intermediates` (DER, `count` of them; untrusted) to
/// `root` (trusted), every certificate valid at `at` (seconds since the epoch). 1 holds, 0 not
/// (`error` says why), -1 a certificate cannot be read.
int tack_cert_path(const uint8_t *leaf, size_t leaf_len, const uint8_t *const *intermediates, const size_t *lengths, size_t count,
                   const uint8_t *root, size_t root_len, int64_t at, char *error, size_t error_cap);

/// The TBSCertificate of the leaf without its embedded SCT list: what a log signed (RFC 6962).
long tack_cert_precert_tbs(const uint8_t *der, size_t der_len, uint8_t *out, size_t cap);

/// How many SCTs the certificate embeds (0 when none, -1 when the list is unreadable).
int tack_cert_sct_count(const uint8_t *der, size_t der_len);

/// The SCT at `index`: version, log id (32 bytes), timestamp (ms), extensions and signature,
/// and the signature's algorithm (1 ECDSA with SHA-256, 2 RSA with SHA-256, 0 another).
int tack_cert_sct(const uint8_t *der, size_t der_len, int index, int *version, uint8_t log_id[32], uint64_t *timestamp,
                  uint8_t *extensions, size_t extensions_cap, size_t *extensions_len,
                  uint8_t *signature, size_t signature_cap, size_t *signature_len, int *algorithm);

/// An RFC 3161 TimeStampResp (DER): its time (seconds since the epoch), read without checking.
int tack_ts_time(const uint8_t *response, size_t response_len, int64_t *gen_time);

/// Checks an RFC 3161 TimeStampResp over `data`: granted, its CMS signature, an imprint of
/// `data` by SHA-256/384/512, and its signer's path (from the token's own certificates and
/// `chain`, untrusted) to `root`, each certificate valid at the stamp's own time, with the
/// time-stamping purpose. 1 holds, 0 not (`error` says why), -1 unreadable.
int tack_ts_verify(const uint8_t *response, size_t response_len, const uint8_t *data, size_t data_len,
                   const uint8_t *const *chain, const size_t *lengths, size_t count, const uint8_t *root, size_t root_len,
                   char *error, size_t error_cap);

#endif
