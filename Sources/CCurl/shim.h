// libcurl's easy interface. `curl_easy_setopt` and `curl_easy_getinfo` take variadic
// arguments, which Swift cannot pass: these name each kind of value.
#include <curl/curl.h>

typedef size_t (*tack_curl_data_function)(char *buffer, size_t size, size_t count, void *context);
typedef int (*tack_curl_progress_function)(void *context, curl_off_t download_total, curl_off_t downloaded,
                                           curl_off_t upload_total, curl_off_t uploaded);

static inline CURLcode tack_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode tack_curl_set_offset(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode tack_curl_set_pointer(CURL *curl, CURLoption option, const void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode tack_curl_set_data_function(CURL *curl, CURLoption option, tack_curl_data_function function) {
    return curl_easy_setopt(curl, option, function);
}
static inline CURLcode tack_curl_set_progress_function(CURL *curl, tack_curl_progress_function function) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, function);
}
static inline CURLcode tack_curl_get_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
static inline CURLcode tack_curl_get_string(CURL *curl, CURLINFO info, char **value) {
    return curl_easy_getinfo(curl, info, value);
}
