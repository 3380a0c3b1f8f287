// Wrappers for the OpenSSL macros and variadic calls the local certificate authority needs;
// Swift imports neither function-like macros nor variadic C functions.
#ifndef UNDERSTUDY_CERTIFICATE_AUTHORITY_H
#define UNDERSTUDY_CERTIFICATE_AUTHORITY_H

#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>

/// A fresh EC P-256 key pair (EVP_EC_gen is a macro over a variadic call).
static inline EVP_PKEY *understudy_ca_generate_p256_key(void) {
    return EVP_EC_gen("P-256");
}

/// Adds one X.509 v3 extension written in OpenSSL's configuration syntax
/// ("critical,CA:TRUE"), with `issuer` as the signer for key identifiers. Returns 1 on success.
static inline int understudy_ca_add_extension(X509 *certificate, X509 *issuer, int nid, const char *value) {
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, certificate, NULL, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &context, nid, value);
    if (extension == NULL) return 0;
    int added = X509_add_ext(certificate, extension, -1);
    X509_EXTENSION_free(extension);
    return added;
}

/// The bytes a memory BIO holds (BIO_get_mem_data is a macro); returns their count.
static inline long understudy_ca_bio_contents(BIO *bio, const char **contents) {
    return BIO_get_mem_data(bio, contents);
}

/// Adds an issuer certificate to the chain an SSL sends (SSL_add1_chain_cert is a macro).
static inline int understudy_ca_ssl_add1_chain_cert(SSL *ssl, X509 *certificate) {
    return (int)SSL_add1_chain_cert(ssl, certificate);
}

/// Adds an issuer certificate to the chain an SSL_CTX sends (SSL_CTX_add1_chain_cert is a macro).
static inline int understudy_ca_ssl_ctx_add1_chain_cert(SSL_CTX *context, X509 *certificate) {
    return (int)SSL_CTX_add1_chain_cert(context, certificate);
}

/// Drops the chain an SSL sends (SSL_clear_chain_certs is a macro), before installing another identity.
static inline int understudy_ca_ssl_clear_chain_certs(SSL *ssl) {
    return (int)SSL_clear_chain_certs(ssl);
}

/// How many names a GENERAL_NAMES stack holds (the sk_ accessors are macros).
static inline int understudy_ca_general_names_count(const GENERAL_NAMES *names) {
    return sk_GENERAL_NAME_num(names);
}

/// One name of a GENERAL_NAMES stack.
static inline GENERAL_NAME *understudy_ca_general_names_value(const GENERAL_NAMES *names, int index) {
    return sk_GENERAL_NAME_value(names, index);
}

#endif
