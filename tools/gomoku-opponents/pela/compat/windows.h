// The few Win32 names Piskvork's brain sources use, for building them on
// Linux. Written for tengen; not Microsoft or Piskvork code.
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint32_t DWORD;
typedef uint64_t DWORD64;

static inline DWORD GetTickCount(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (DWORD)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

#define UInt32x32To64(a, b) ((uint64_t)(uint32_t)(a) * (uint64_t)(uint32_t)(b))

#ifndef max
#define max(a, b) (((a) > (b)) ? (a) : (b))
#endif
#ifndef min
#define min(a, b) (((a) < (b)) ? (a) : (b))
#endif
