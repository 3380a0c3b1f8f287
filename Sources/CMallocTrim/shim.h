// glibc's malloc_trim, which Swift's Glibc module does not bring in (it lives in <malloc.h>).
// Linux only: Package.swift builds this module for Linux targets alone.
#include <malloc.h>

static inline int cmalloc_trim(size_t pad) { return malloc_trim(pad); }
