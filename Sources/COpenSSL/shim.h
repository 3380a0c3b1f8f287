#include "certificate_authority.h"
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* TLS server and test-client wrappers: OpenSSL macros Swift cannot import (function-like macros
   over SSL_CTX_ctrl/SSL_ctrl/BIO_ctrl, and option bits built with SSL_OP_BIT). */

static inline int understudy_ssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
static inline int understudy_ssl_ctx_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}
static inline long understudy_ssl_ctx_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline long understudy_ssl_ctx_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}
static inline long understudy_ssl_ctx_sess_set_cache_size(SSL_CTX *ctx, long size) {
    return SSL_CTX_sess_set_cache_size(ctx, size);
}
static inline void understudy_ssl_ctx_set_read_ahead(SSL_CTX *ctx, int on) { SSL_CTX_set_read_ahead(ctx, on); }
static inline uint64_t understudy_ssl_op_cipher_server_preference(void) { return SSL_OP_CIPHER_SERVER_PREFERENCE; }
static inline uint64_t understudy_ssl_op_no_renegotiation(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline uint64_t understudy_ssl_op_ignore_unexpected_eof(void) { return SSL_OP_IGNORE_UNEXPECTED_EOF; }
static inline uint64_t understudy_ssl_op_no_compression(void) { return SSL_OP_NO_COMPRESSION; }

typedef int (*understudy_servername_callback)(SSL *ssl, int *alert, void *arg);
static inline long understudy_ssl_ctx_set_servername_callback(SSL_CTX *ctx, understudy_servername_callback callback, void *arg) {
    SSL_CTX_set_tlsext_servername_arg(ctx, arg);
    return SSL_CTX_set_tlsext_servername_callback(ctx, callback);
}

/* ALPN: pick http/1.1 when the client offers it; otherwise go on without ALPN (NOACK) rather than
   failing the handshake, as servers that speak one protocol do. */
static inline int understudy_alpn_select_http11(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                                          const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl; (void)arg;
    static const unsigned char http11[] = { 8, 'h', 't', 't', 'p', '/', '1', '.', '1' };
    unsigned char *selected = NULL;
    if (SSL_select_next_proto(&selected, outlen, http11, sizeof http11, in, inlen) == OPENSSL_NPN_NEGOTIATED) {
        *out = selected;
        return SSL_TLSEXT_ERR_OK;
    }
    return SSL_TLSEXT_ERR_NOACK;
}
static inline void understudy_ssl_ctx_select_alpn_http11(SSL_CTX *ctx) {
    SSL_CTX_set_alpn_select_cb(ctx, understudy_alpn_select_http11, NULL);
}

static inline long understudy_ssl_add1_chain_cert(SSL *ssl, X509 *certificate) { return SSL_add1_chain_cert(ssl, certificate); }
static inline long understudy_ssl_set_tlsext_host_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
static inline long understudy_bio_set_mem_eof_return(BIO *bio, int value) { return BIO_set_mem_eof_return(bio, value); }
