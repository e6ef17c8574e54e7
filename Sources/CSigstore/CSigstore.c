#include "CSigstore.h"

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/ct.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/ts.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>
#include <time.h>

static const EVP_MD *digest_of(int md) {
    switch (md) {
    case TACK_MD_SHA256: return EVP_sha256();
    case TACK_MD_SHA384: return EVP_sha384();
    case TACK_MD_SHA512: return EVP_sha512();
    default: return NULL;
    }
}

int tack_digest(int md, const uint8_t *data, size_t len, uint8_t out[64]) {
    const EVP_MD *type = digest_of(md);
    unsigned int n = 0;
    if (!type || EVP_Digest(data, len, out, &n, type, NULL) != 1) return -1;
    return (int)n;
}

static EVP_PKEY *read_spki(const uint8_t *spki, size_t len) {
    const unsigned char *cursor = spki;
    EVP_PKEY *key = d2i_PUBKEY(NULL, &cursor, (long)len);
    if (key && cursor != spki + len) {
        EVP_PKEY_free(key);
        return NULL;
    }
    return key;
}

static X509 *read_cert(const uint8_t *der, size_t len) {
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, (long)len);
    if (cert && cursor != der + len) {
        X509_free(cert);
        return NULL;
    }
    return cert;
}

static int kind_of(EVP_PKEY *key) {
    switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_ED25519: return TACK_KEY_ED25519;
    case EVP_PKEY_RSA: return TACK_KEY_RSA;
    case EVP_PKEY_EC: {
        char group[64] = {0};
        if (EVP_PKEY_get_utf8_string_param(key, "group", group, sizeof group, NULL) != 1) return TACK_KEY_UNKNOWN;
        if (strcmp(group, "prime256v1") == 0) return TACK_KEY_EC_P256;
        if (strcmp(group, "secp384r1") == 0) return TACK_KEY_EC_P384;
        if (strcmp(group, "secp521r1") == 0) return TACK_KEY_EC_P521;
        return TACK_KEY_UNKNOWN;
    }
    default: return TACK_KEY_UNKNOWN;
    }
}

int tack_sig_key_kind(const uint8_t *spki, size_t spki_len) {
    EVP_PKEY *key = read_spki(spki, spki_len);
    if (!key) return -1;
    int kind = kind_of(key);
    EVP_PKEY_free(key);
    return kind;
}

static const EVP_MD *default_digest(int kind) {
    switch (kind) {
    case TACK_KEY_EC_P384: return EVP_sha384();
    case TACK_KEY_EC_P521: return EVP_sha512();
    case TACK_KEY_ED25519: return NULL;
    default: return EVP_sha256();
    }
}

int tack_sig_verify_message(const uint8_t *spki, size_t spki_len, int md, int rsa_pss,
                            const uint8_t *msg, size_t msg_len, const uint8_t *sig, size_t sig_len) {
    EVP_PKEY *key = read_spki(spki, spki_len);
    if (!key) return -1;
    int kind = kind_of(key), result = -1;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    if (kind == TACK_KEY_UNKNOWN || !context) goto done;
    const EVP_MD *digest = kind == TACK_KEY_ED25519 ? NULL : (md == TACK_MD_DEFAULT ? default_digest(kind) : digest_of(md));
    if (kind != TACK_KEY_ED25519 && !digest) goto done;
    if (EVP_DigestVerifyInit(context, &pctx, digest, NULL, key) != 1) goto done;
    if (kind == TACK_KEY_RSA && rsa_pss && EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) <= 0) goto done;
    result = EVP_DigestVerify(context, sig, sig_len, msg, msg_len) == 1 ? 1 : 0;
done:
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    ERR_clear_error();
    return result;
}

int tack_sig_verify_digest(const uint8_t *spki, size_t spki_len, int md,
                           const uint8_t *digest, size_t digest_len, const uint8_t *sig, size_t sig_len) {
    EVP_PKEY *key = read_spki(spki, spki_len);
    if (!key) return -1;
    int kind = kind_of(key), result = -1;
    EVP_PKEY_CTX *context = NULL;
    const EVP_MD *type = md == TACK_MD_DEFAULT ? default_digest(kind) : digest_of(md);
    if (kind == TACK_KEY_UNKNOWN || kind == TACK_KEY_ED25519 || !type || (size_t)EVP_MD_get_size(type) != digest_len) goto done;
    context = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (!context || EVP_PKEY_verify_init(context) <= 0 || EVP_PKEY_CTX_set_signature_md(context, type) <= 0) goto done;
    if (kind == TACK_KEY_RSA && EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) <= 0) goto done;
    result = EVP_PKEY_verify(context, sig, sig_len, digest, digest_len) == 1 ? 1 : 0;
done:
    EVP_PKEY_CTX_free(context);
    EVP_PKEY_free(key);
    ERR_clear_error();
    return result;
}

static long write_key(EVP_PKEY *key, uint8_t *out, size_t cap) {
    if (!key) return -1;
    int n = i2d_PUBKEY(key, NULL);
    long result = -1;
    if (n > 0 && (size_t)n > cap) result = -2;
    else if (n > 0) {
        unsigned char *cursor = out;
        result = i2d_PUBKEY(key, &cursor);
    }
    EVP_PKEY_free(key);
    return result;
}

long tack_sig_pem_public_key(const char *pem, size_t pem_len, uint8_t *out, size_t cap) {
    BIO *bio = BIO_new_mem_buf(pem, (int)pem_len);
    if (!bio) return -1;
    EVP_PKEY *key = PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
    if (!key) {
        BIO_free(bio);
        bio = BIO_new_mem_buf(pem, (int)pem_len);
        RSA *rsa = bio ? PEM_read_bio_RSAPublicKey(bio, NULL, NULL, NULL) : NULL;
        if (rsa) {
            key = EVP_PKEY_new();
            if (!key || EVP_PKEY_assign_RSA(key, rsa) != 1) {
                EVP_PKEY_free(key);
                RSA_free(rsa);
                key = NULL;
            }
        }
    }
    BIO_free(bio);
    ERR_clear_error();
    return write_key(key, out, cap);
}

long tack_sig_pem_certificate(const char *pem, size_t pem_len, uint8_t *out, size_t cap) {
    BIO *bio = BIO_new_mem_buf(pem, (int)pem_len);
    if (!bio) return -1;
    X509 *cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    ERR_clear_error();
    if (!cert) return -1;
    int n = i2d_X509(cert, NULL);
    long result = -1;
    if (n > 0 && (size_t)n > cap) result = -2;
    else if (n > 0) {
        unsigned char *cursor = out;
        result = i2d_X509(cert, &cursor);
    }
    X509_free(cert);
    return result;
}

long tack_sig_pkcs1_rsa_public_key(const uint8_t *der, size_t der_len, uint8_t *out, size_t cap) {
    const unsigned char *cursor = der;
    EVP_PKEY *key = d2i_PublicKey(EVP_PKEY_RSA, NULL, &cursor, (long)der_len);
    ERR_clear_error();
    if (key && cursor != der + der_len) {
        EVP_PKEY_free(key);
        return -1;
    }
    return write_key(key, out, cap);
}

int tack_cert_parses(const uint8_t *der, size_t der_len) {
    X509 *cert = read_cert(der, der_len);
    ERR_clear_error();
    if (!cert) return 0;
    X509_free(cert);
    return 1;
}

long tack_cert_public_key(const uint8_t *der, size_t der_len, uint8_t *out, size_t cap) {
    X509 *cert = read_cert(der, der_len);
    if (!cert) return -1;
    EVP_PKEY *key = X509_get_pubkey(cert);
    X509_free(cert);
    ERR_clear_error();
    return write_key(key, out, cap);
}

static int64_t seconds(const ASN1_TIME *t) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    if (!t || ASN1_TIME_to_tm(t, &tm) != 1) return INT64_MIN;
    return (int64_t)timegm(&tm);
}

int tack_cert_validity(const uint8_t *der, size_t der_len, int64_t *not_before, int64_t *not_after) {
    X509 *cert = read_cert(der, der_len);
    if (!cert) return -1;
    *not_before = seconds(X509_get0_notBefore(cert));
    *not_after = seconds(X509_get0_notAfter(cert));
    X509_free(cert);
    return *not_before == INT64_MIN || *not_after == INT64_MIN ? -1 : 0;
}

int tack_cert_is_ca(const uint8_t *der, size_t der_len) {
    X509 *cert = read_cert(der, der_len);
    if (!cert) return -1;
    int ca = X509_check_ca(cert) != 0;
    X509_free(cert);
    return ca;
}

int tack_cert_may_sign_code(const uint8_t *der, size_t der_len) {
    X509 *cert = read_cert(der, der_len);
    if (!cert) return -1;
    uint32_t usage = X509_get_key_usage(cert), extended = X509_get_extended_key_usage(cert);
    int ok = (usage & KU_DIGITAL_SIGNATURE) != 0 && (X509_get_extension_flags(cert) & EXFLAG_XKUSAGE) != 0 && (extended & XKU_CODE_SIGN) != 0;
    X509_free(cert);
    return ok;
}

static long copy_text(const unsigned char *data, int len, char *out, size_t cap) {
    if (len < 0) return -1;
    if ((size_t)len + 1 > cap) return -2;
    memcpy(out, data, (size_t)len);
    out[len] = 0;
    return len;
}

long tack_cert_alt_name(const uint8_t *der, size_t der_len, int kind, char *out, size_t cap) {
    X509 *cert = read_cert(der, der_len);
    if (!cert) return -1;
    GENERAL_NAMES *names = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
    long result = -1;
    ASN1_OBJECT *username = OBJ_txt2obj("1.3.6.1.4.1.57264.1.7", 1);
    for (int i = 0; names && i < sk_GENERAL_NAME_num(names) && result == -1; i++) {
        GENERAL_NAME *name = sk_GENERAL_NAME_value(names, i);
        if (kind == 1 && name->type == GEN_URI)
            result = copy_text(ASN1_STRING_get0_data(name->d.uniformResourceIdentifier), ASN1_STRING_length(name->d.uniformResourceIdentifier), out, cap);
        else if (kind == 2 && name->type == GEN_EMAIL)
            result = copy_text(ASN1_STRING_get0_data(name->d.rfc822Name), ASN1_STRING_length(name->d.rfc822Name), out, cap);
        else if (kind == 3 && name->type == GEN_OTHERNAME && username && OBJ_cmp(name->d.otherName->type_id, username) == 0 &&
                 name->d.otherName->value && name->d.otherName->value->type == V_ASN1_UTF8STRING)
            result = copy_text(ASN1_STRING_get0_data(name->d.otherName->value->value.utf8string),
                               ASN1_STRING_length(name->d.otherName->value->value.utf8string), out, cap);
    }
    ASN1_OBJECT_free(username);
    GENERAL_NAMES_free(names);
    X509_free(cert);
    ERR_clear_error();
    return result;
}

long tack_cert_extension(const uint8_t *der, size_t der_len, const char *oid, uint8_t *out, size_t cap) {
    X509 *cert = read_cert(der, der_len);
    if (!cert) return -1;
    ASN1_OBJECT *object = OBJ_txt2obj(oid, 1);
    long result = -1;
    int at = object ? X509_get_ext_by_OBJ(cert, object, -1) : -1;
    if (at >= 0) {
        ASN1_OCTET_STRING *value = X509_EXTENSION_get_data(X509_get_ext(cert, at));
        int n = ASN1_STRING_length(value);
        if (n >= 0 && (size_t)n > cap) result = -2;
        else if (n >= 0) {
            memcpy(out, ASN1_STRING_get0_data(value), (size_t)n);
            result = n;
        }
    }
    ASN1_OBJECT_free(object);
    X509_free(cert);
    ERR_clear_error();
    return result;
}

long tack_der_utf8_string(const uint8_t *der, size_t der_len, char *out, size_t cap) {
    const unsigned char *cursor = der;
    ASN1_UTF8STRING *s = d2i_ASN1_UTF8STRING(NULL, &cursor, (long)der_len);
    ERR_clear_error();
    if (!s) return -1;
    long result = cursor == der + der_len ? copy_text(ASN1_STRING_get0_data(s), ASN1_STRING_length(s), out, cap) : -1;
    ASN1_UTF8STRING_free(s);
    return result;
}

static void say(char *error, size_t cap, const char *text) {
    if (error && cap > 0) {
        strncpy(error, text, cap - 1);
        error[cap - 1] = 0;
    }
}

static STACK_OF(X509) *read_certs(const uint8_t *const *ders, const size_t *lengths, size_t count, int *ok) {
    STACK_OF(X509) *stack = sk_X509_new_null();
    *ok = stack != NULL;
    for (size_t i = 0; *ok && i < count; i++) {
        X509 *cert = read_cert(ders[i], lengths[i]);
        if (!cert || !sk_X509_push(stack, cert)) {
            X509_free(cert);
            *ok = 0;
        }
    }
    return stack;
}

int tack_cert_path(const uint8_t *leaf, size_t leaf_len, const uint8_t *const *intermediates, const size_t *lengths, size_t count,
                   const uint8_t *root, size_t root_len, int64_t at, char *error, size_t error_cap) {
    int result = -1, ok = 0;
    X509 *leaf_cert = read_cert(leaf, leaf_len), *root_cert = read_cert(root, root_len);
    STACK_OF(X509) *untrusted = read_certs(intermediates, lengths, count, &ok);
    X509_STORE *store = X509_STORE_new();
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    if (!leaf_cert || !root_cert || !ok || !store || !context) {
        say(error, error_cap, "a certificate cannot be read");
        goto done;
    }
    if (X509_STORE_add_cert(store, root_cert) != 1 || X509_STORE_CTX_init(context, store, leaf_cert, untrusted) != 1) goto done;
    X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), (time_t)at);
    if (X509_verify_cert(context) == 1) {
        result = 1;
    } else {
        result = 0;
        say(error, error_cap, X509_verify_cert_error_string(X509_STORE_CTX_get_error(context)));
    }
done:
    X509_STORE_CTX_free(context);
    X509_STORE_free(store);
    sk_X509_pop_free(untrusted, X509_free);
    X509_free(root_cert);
    X509_free(leaf_cert);
    ERR_clear_error();
    return result;
}

long tack_cert_precert_tbs(const uint8_t *der, size_t der_len, uint8_t *out, size_t cap) {
    X509 *cert = read_cert(der, der_len);
    if (!cert) return -1;
    long result = -1;
    int at = X509_get_ext_by_NID(cert, NID_ct_precert_scts, -1);
    if (at >= 0) {
        X509_EXTENSION *removed = X509_delete_ext(cert, at);
        X509_EXTENSION_free(removed);
    }
    int n = i2d_re_X509_tbs(cert, NULL);
    if (n > 0 && (size_t)n > cap) result = -2;
    else if (n > 0) {
        unsigned char *cursor = out;
        result = i2d_re_X509_tbs(cert, &cursor);
    }
    X509_free(cert);
    ERR_clear_error();
    return result;
}

static STACK_OF(SCT) *read_scts(const uint8_t *der, size_t der_len, int *present) {
    X509 *cert = read_cert(der, der_len);
    *present = 0;
    if (!cert) return NULL;
    *present = X509_get_ext_by_NID(cert, NID_ct_precert_scts, -1) >= 0;
    STACK_OF(SCT) *scts = *present ? X509_get_ext_d2i(cert, NID_ct_precert_scts, NULL, NULL) : NULL;
    X509_free(cert);
    ERR_clear_error();
    return scts;
}

int tack_cert_sct_count(const uint8_t *der, size_t der_len) {
    int present = 0;
    STACK_OF(SCT) *scts = read_scts(der, der_len, &present);
    if (!present) return 0;
    if (!scts) return -1;
    int n = sk_SCT_num(scts);
    SCT_LIST_free(scts);
    return n;
}

int tack_cert_sct(const uint8_t *der, size_t der_len, int index, int *version, uint8_t log_id[32], uint64_t *timestamp,
                  uint8_t *extensions, size_t extensions_cap, size_t *extensions_len,
                  uint8_t *signature, size_t signature_cap, size_t *signature_len, int *algorithm) {
    int present = 0, result = -1;
    STACK_OF(SCT) *scts = read_scts(der, der_len, &present);
    if (!scts || index < 0 || index >= sk_SCT_num(scts)) goto done;
    SCT *sct = sk_SCT_value(scts, index);
    unsigned char *id = NULL, *ext = NULL, *sig = NULL;
    size_t id_len = SCT_get0_log_id(sct, &id);
    size_t ext_len = SCT_get0_extensions(sct, &ext);
    size_t sig_len = SCT_get0_signature(sct, &sig);
    if (id_len != 32 || ext_len > extensions_cap || sig_len > signature_cap) goto done;
    *version = (int)SCT_get_version(sct);
    memcpy(log_id, id, 32);
    *timestamp = SCT_get_timestamp(sct);
    if (ext_len) memcpy(extensions, ext, ext_len);
    *extensions_len = ext_len;
    if (sig_len) memcpy(signature, sig, sig_len);
    *signature_len = sig_len;
    switch (SCT_get_signature_nid(sct)) {
    case NID_ecdsa_with_SHA256: *algorithm = 1; break;
    case NID_sha256WithRSAEncryption: *algorithm = 2; break;
    default: *algorithm = 0;
    }
    result = 0;
done:
    SCT_LIST_free(scts);
    return result;
}

int tack_ts_time(const uint8_t *response, size_t response_len, int64_t *gen_time) {
    const unsigned char *cursor = response;
    TS_RESP *resp = d2i_TS_RESP(NULL, &cursor, (long)response_len);
    ERR_clear_error();
    if (!resp) return -1;
    TS_TST_INFO *info = TS_RESP_get_tst_info(resp);
    int64_t t = info ? seconds(TS_TST_INFO_get_time(info)) : INT64_MIN;
    TS_RESP_free(resp);
    if (t == INT64_MIN) return -1;
    *gen_time = t;
    return 0;
}

int tack_ts_verify(const uint8_t *response, size_t response_len, const uint8_t *data, size_t data_len,
                   const uint8_t *const *chain, const size_t *lengths, size_t count, const uint8_t *root, size_t root_len,
                   char *error, size_t error_cap) {
    int result = -1, ok = 0;
    const unsigned char *cursor = response;
    TS_RESP *resp = d2i_TS_RESP(NULL, &cursor, (long)response_len);
    TS_VERIFY_CTX *context = NULL;
    X509 *root_cert = read_cert(root, root_len);
    STACK_OF(X509) *untrusted = read_certs(chain, lengths, count, &ok);
    X509_STORE *store = X509_STORE_new();
    BIO *bio = BIO_new_mem_buf(data, (int)data_len);
    if (!resp || cursor != response + response_len || !root_cert || !ok || !store || !bio) {
        say(error, error_cap, "the timestamp or a certificate cannot be read");
        goto done;
    }
    TS_TST_INFO *info = TS_RESP_get_tst_info(resp);
    int64_t at = info ? seconds(TS_TST_INFO_get_time(info)) : INT64_MIN;
    if (at == INT64_MIN) {
        say(error, error_cap, "the timestamp has no time");
        goto done;
    }
    X509_ALGOR *algorithm = TS_MSG_IMPRINT_get_algo(TS_TST_INFO_get_msg_imprint(info));
    int nid = algorithm ? OBJ_obj2nid(algorithm->algorithm) : NID_undef;
    if (nid != NID_sha256 && nid != NID_sha384 && nid != NID_sha512) {
        result = 0;
        say(error, error_cap, "the timestamp's imprint is not made with SHA-256, SHA-384 or SHA-512");
        goto done;
    }
    if (X509_STORE_add_cert(store, root_cert) != 1) goto done;
    X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(store), (time_t)at);
    context = TS_VERIFY_CTX_new();
    if (!context) goto done;
    TS_VERIFY_CTX_set_flags(context, TS_VFY_VERSION | TS_VFY_SIGNATURE | TS_VFY_DATA);
    // The context owns these from here.
    TS_VERIFY_CTX_set_data(context, bio);
    bio = NULL;
    TS_VERIFY_CTX_set_store(context, store);
    store = NULL;
    TS_VERIFY_CTS_set_certs(context, untrusted);
    untrusted = NULL;
    if (TS_RESP_verify_response(context, resp) == 1) {
        result = 1;
        // Where the trusted root names the authority's own signing certificate (not a CA), the
        // token must be signed by exactly it, not by another under the same root.
        X509 *leaf = count > 0 ? read_cert(chain[0], lengths[0]) : NULL;
        if (leaf && X509_check_ca(leaf) == 0) {
            STACK_OF(X509) *known = sk_X509_new_null();
            STACK_OF(X509) *signers = NULL;
            if (known && sk_X509_push(known, leaf)) {
                signers = PKCS7_get0_signers(TS_RESP_get_token(resp), known, 0);
            }
            if (!signers || sk_X509_num(signers) != 1 || X509_cmp(sk_X509_value(signers, 0), leaf) != 0) {
                result = 0;
                say(error, error_cap, "the timestamp is not signed by the authority's certificate the trusted root names");
            }
            sk_X509_free(signers);
            sk_X509_free(known);
        }
        X509_free(leaf);
    } else {
        result = 0;
        unsigned long code = ERR_peek_last_error();
        say(error, error_cap, code ? ERR_reason_error_string(code) ? ERR_reason_error_string(code) : "the timestamp does not verify" : "the timestamp does not verify");
    }
done:
    TS_VERIFY_CTX_free(context);
    BIO_free(bio);
    X509_STORE_free(store);
    sk_X509_pop_free(untrusted, X509_free);
    X509_free(root_cert);
    TS_RESP_free(resp);
    ERR_clear_error();
    return result;
}
