#include "strata_baselines.h"

// Not inlined, so callgrind's --toggle-collect finds it by name.
__attribute__((noinline)) void strata_measure(void (*body)(void *context), void *context) {
    body(context);
    __asm__ volatile("" ::: "memory");
}
