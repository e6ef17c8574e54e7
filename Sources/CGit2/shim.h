#include <git2.h>

/* git_libgit2_opts is variadic, which Swift cannot call: the one option tack sets. */
static inline int tack_git_set_ssl_cert_locations(const char *file, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, path);
}
