#ifndef GATEHOUSE_CBYTESCAN_H
#define GATEHOUSE_CBYTESCAN_H
// Byte scans 16 and 64 bytes at a time, for the HTTP head scanner (GatehouseHTTP's HeadScanner).
// Swift's SIMD types have no movemask, which is what turns a block's comparison into the offset
// of its first match; SSE2 has it, and every x86-64 processor has SSE2.
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>

/// 0xFF in each byte of `block` below 0x20 (HTAB, CR and LF included) or equal to 0x7F (DEL).
static inline __m128i gh_control_bytes(__m128i block) {
    const __m128i lastControl = _mm_set1_epi8(0x1F);
    const __m128i deleteByte = _mm_set1_epi8(0x7F);
    // Unsigned "below 0x20": the larger of the byte and 0x1F is 0x1F only for 0x00...0x1F.
    return _mm_or_si128(_mm_cmpeq_epi8(_mm_max_epu8(block, lastControl), lastControl),
                        _mm_cmpeq_epi8(block, deleteByte));
}
#endif

/// The offset of the first byte below 0x20 (HTAB, CR and LF included) or equal to 0x7F (DEL)
/// within the whole 16-byte blocks of `bytes[0..<length]`; when those blocks have none, the
/// length they cover (`length` rounded down to 16). Without SSE2, the same a byte at a time.
static inline size_t gh_first_control_in_blocks(const uint8_t *bytes, size_t length) {
#if defined(__SSE2__)
    size_t offset = 0;
    // Most header lines end within two blocks: those are looked at one by one.
    for (; offset < 32 && offset + 16 <= length; offset += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + offset));
        unsigned mask = (unsigned)_mm_movemask_epi8(gh_control_bytes(block));
        if (mask != 0) return offset + (size_t)__builtin_ctz(mask);
    }
    // Long values (tokens, cookies) four blocks at a time, with one test per 64 bytes.
    for (; offset + 64 <= length; offset += 64) {
        __m128i first = gh_control_bytes(_mm_loadu_si128((const __m128i *)(bytes + offset)));
        __m128i second = gh_control_bytes(_mm_loadu_si128((const __m128i *)(bytes + offset + 16)));
        __m128i third = gh_control_bytes(_mm_loadu_si128((const __m128i *)(bytes + offset + 32)));
        __m128i fourth = gh_control_bytes(_mm_loadu_si128((const __m128i *)(bytes + offset + 48)));
        __m128i any = _mm_or_si128(_mm_or_si128(first, second), _mm_or_si128(third, fourth));
        if (_mm_movemask_epi8(any) != 0) {
            uint64_t mask = (uint64_t)(unsigned)_mm_movemask_epi8(first)
                | (uint64_t)(unsigned)_mm_movemask_epi8(second) << 16
                | (uint64_t)(unsigned)_mm_movemask_epi8(third) << 32
                | (uint64_t)(unsigned)_mm_movemask_epi8(fourth) << 48;
            return offset + (size_t)__builtin_ctzll(mask);
        }
    }
    for (; offset + 16 <= length; offset += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + offset));
        unsigned mask = (unsigned)_mm_movemask_epi8(gh_control_bytes(block));
        if (mask != 0) return offset + (size_t)__builtin_ctz(mask);
    }
    return offset;
#else
    size_t blocks = length & ~(size_t)15;
    for (size_t offset = 0; offset < blocks; offset++) {
        if (bytes[offset] < 0x20 || bytes[offset] == 0x7F) return offset;
    }
    return blocks;
#endif
}

#endif
