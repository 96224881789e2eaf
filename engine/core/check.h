// SS_CHECK: invariants that, when broken, mean a bug in SyncScope itself. It aborts with file:line
// so the bug is found where it happens; recoverable failures use Status (status.h) instead.
#pragma once

#include <cstdio>
#include <cstdlib>

#define SS_CHECK(cond, msg)                                                                       \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            std::fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__, #cond, msg); \
            std::abort();                                                                         \
        }                                                                                         \
    } while (0)
