#ifndef GATEHOUSE_CZLIB_SHIM_H
#define GATEHOUSE_CZLIB_SHIM_H
#include <zlib.h>

// deflateInit2/inflateInit2 are macros; Swift sees these instead.
static inline int gh_deflateInit2(z_streamp strm, int level, int windowBits) {
    return deflateInit2(strm, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}
static inline int gh_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif
