// The system's OpenSSL libcrypto (3.0 or later): digests through EVP, and two signature checks
// that need OpenSSL's parameter builders, which Swift cannot call as written.
#include <openssl/evp.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <string.h>

/// Checks an RSA PKCS #1 v1.5 signature over an already computed digest. `n` and `e` are the
/// key's modulus and exponent, big-endian; `digest_name` is OpenSSL's name of the hash the
/// digest was made with ("SHA256", ...). Returns 1 when the signature is valid, 0 when it is
/// not, -1 when the key cannot be used (shorter than 2048 bits, or malformed).
static inline int tack_rsa_verify(const unsigned char *n, size_t n_len, const unsigned char *e, size_t e_len,
                                  const char *digest_name, const unsigned char *digest, size_t digest_len,
                                  const unsigned char *signature, size_t signature_len) {
    int result = -1;
    BIGNUM *modulus = BN_bin2bn(n, (int)n_len, NULL), *exponent = BN_bin2bn(e, (int)e_len, NULL);
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *key_context = NULL, *verify_context = NULL;
    EVP_PKEY *key = NULL;
    const EVP_MD *md = EVP_get_digestbyname(digest_name);
    if (!modulus || !exponent || !builder || !md || BN_num_bits(modulus) < 2048) goto done;
    if (!OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, modulus) ||
        !OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, exponent)) goto done;
    params = OSSL_PARAM_BLD_to_param(builder);
    key_context = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    if (!params || !key_context || EVP_PKEY_fromdata_init(key_context) <= 0 ||
        EVP_PKEY_fromdata(key_context, &key, EVP_PKEY_PUBLIC_KEY, params) <= 0) goto done;
    verify_context = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (!verify_context || EVP_PKEY_verify_init(verify_context) <= 0 ||
        EVP_PKEY_CTX_set_rsa_padding(verify_context, RSA_PKCS1_PADDING) <= 0 ||
        EVP_PKEY_CTX_set_signature_md(verify_context, md) <= 0) goto done;
    result = EVP_PKEY_verify(verify_context, signature, signature_len, digest, digest_len) == 1 ? 1 : 0;
done:
    EVP_PKEY_CTX_free(verify_context);
    EVP_PKEY_free(key);
    EVP_PKEY_CTX_free(key_context);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(builder);
    BN_free(exponent);
    BN_free(modulus);
    return result;
}

/// Checks an Ed25519 signature (64 bytes) of `message` by a 32-byte public key. Returns 1 when
/// valid, 0 when not, -1 when the key cannot be used.
static inline int tack_ed25519_verify(const unsigned char *public_key, const unsigned char *message, size_t message_len,
                                      const unsigned char *signature) {
    EVP_PKEY *key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, public_key, 32);
    if (!key) return -1;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int result = -1;
    if (context && EVP_DigestVerifyInit(context, NULL, NULL, NULL, key) == 1)
        result = EVP_DigestVerify(context, signature, 64, message, message_len) == 1 ? 1 : 0;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return result;
}

/// Checks an ECDSA signature (DER, as `cosign sign-blob` writes it before base64) over a
/// SHA-256 digest, by a P-256 key given as a DER SubjectPublicKeyInfo (what a
/// `-----BEGIN PUBLIC KEY-----` block holds). Returns 1 when valid, 0 when not, -1 when the key
/// cannot be read or is not a P-256 key.
static inline int tack_ecdsa_p256_verify(const unsigned char *spki, size_t spki_len, const unsigned char *digest, size_t digest_len,
                                         const unsigned char *signature, size_t signature_len) {
    const unsigned char *cursor = spki;
    EVP_PKEY *key = d2i_PUBKEY(NULL, &cursor, (long)spki_len);
    if (!key) return -1;
    int result = -1;
    char group[64] = {0};
    EVP_PKEY_CTX *context = NULL;
    if (cursor != spki + spki_len || EVP_PKEY_get_base_id(key) != EVP_PKEY_EC ||
        EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, NULL) != 1 ||
        strcmp(group, "prime256v1") != 0) goto done;
    context = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (!context || EVP_PKEY_verify_init(context) <= 0 || EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) <= 0) goto done;
    result = EVP_PKEY_verify(context, signature, signature_len, digest, digest_len) == 1 ? 1 : 0;
done:
    EVP_PKEY_CTX_free(context);
    EVP_PKEY_free(key);
    return result;
}
