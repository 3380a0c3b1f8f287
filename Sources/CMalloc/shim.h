// glibc's allocator extras from <malloc.h>, which Swift's Glibc module does not bring in.
// Linux only: Package.swift builds this module for Linux targets alone.
#include <malloc.h>

static inline int cmalloc_trim(size_t pad) { return malloc_trim(pad); }

/// Fixes the size from which allocations are mapped from the system (and unmapped when freed);
/// 1 on success. Setting it also stops glibc from raising it on its own.
static inline int cmalloc_set_mmap_threshold(size_t bytes) { return mallopt(M_MMAP_THRESHOLD, (int)bytes); }

/// Whether glibc served the block at `p` with a mapping of its own.
///
/// glibc marks such a chunk with bit 0x2 (`IS_MMAPPED`) of the size word just before the block.
/// Asking about one block, unlike `mallinfo2().hblkhd`, is not thrown off by other threads
/// mapping and unmapping blocks at the same time.
static inline int cmalloc_block_is_mapped(const void *p) {
    return (((const size_t *)p)[-1] & 0x2) != 0;
}

/// Bytes the program holds (`in_use`) and bytes the allocator has from the system for it (`held`),
/// over every arena plus mmapped chunks; 0 where the C library has no `mallinfo2` (glibc < 2.33),
/// whose older `mallinfo` counts in `int`s that wrap past 2 GiB. (`mallinfo2` and its struct share
/// a name, which Swift cannot import side by side.)
static inline int cmalloc_usage(size_t *in_use, size_t *held) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    *in_use = info.uordblks + info.hblkhd;
    *held = info.arena + info.hblkhd;
    return 1;
#else
    return 0;
#endif
}
