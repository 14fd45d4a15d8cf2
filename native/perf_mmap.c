/*
 * The perf_event self-monitoring reader: counts of a group read with rdpmc from the fds' mmap'ed
 * struct perf_event_mmap_page, following the protocol documented in linux/perf_event.h.
 */
#include "picollo_native.h"

#include <stddef.h>
#include <linux/perf_event.h>

/*
 * The managed tests build synthetic pages with these byte offsets (PerfMmapPageLayout.cs); the kernel's
 * UAPI layout is stable, but a mismatch here would make every synthetic test lie, so pin it.
 */
_Static_assert(offsetof(struct perf_event_mmap_page, version) == 0, "version");
_Static_assert(offsetof(struct perf_event_mmap_page, compat_version) == 4, "compat_version");
_Static_assert(offsetof(struct perf_event_mmap_page, lock) == 8, "lock");
_Static_assert(offsetof(struct perf_event_mmap_page, index) == 12, "index");
_Static_assert(offsetof(struct perf_event_mmap_page, offset) == 16, "offset");
_Static_assert(offsetof(struct perf_event_mmap_page, time_enabled) == 24, "time_enabled");
_Static_assert(offsetof(struct perf_event_mmap_page, time_running) == 32, "time_running");
_Static_assert(offsetof(struct perf_event_mmap_page, capabilities) == 40, "capabilities");
_Static_assert(offsetof(struct perf_event_mmap_page, pmc_width) == 48, "pmc_width");
_Static_assert(offsetof(struct perf_event_mmap_page, time_shift) == 50, "time_shift");
_Static_assert(offsetof(struct perf_event_mmap_page, time_mult) == 52, "time_mult");
_Static_assert(offsetof(struct perf_event_mmap_page, time_offset) == 56, "time_offset");
_Static_assert(offsetof(struct perf_event_mmap_page, time_zero) == 64, "time_zero");
_Static_assert(offsetof(struct perf_event_mmap_page, size) == 72, "size");
_Static_assert(offsetof(struct perf_event_mmap_page, time_cycles) == 80, "time_cycles");
_Static_assert(offsetof(struct perf_event_mmap_page, time_mask) == 88, "time_mask");
_Static_assert(sizeof(picollo_perf_value) == 24, "picollo_perf_value is three u64, as the managed mirror");

/* Bits of perf_event_mmap_page.capabilities (the bit-field order of the UAPI union). */
#define CAP_USER_RDPMC (1ULL << 2)
#define CAP_USER_TIME (1ULL << 3)
#define CAP_USER_TIME_SHORT (1ULL << 5)

/* Keeps the compiler from moving page loads across the seqlock reads (the kernel's barrier()). */
#define COMPILER_BARRIER() __asm__ __volatile__("" ::: "memory")

/* The fields one read needs, copied out of the page inside the seqlock. */
typedef struct page_fields
{
    uint32_t index;
    int64_t offset;
    uint64_t time_enabled;
    uint64_t time_running;
    uint64_t capabilities;
    uint16_t pmc_width;
    uint16_t time_shift;
    uint32_t time_mult;
    uint64_t time_offset;
    uint64_t time_cycles;
    uint64_t time_mask;
} page_fields;

static inline void load_fields(const volatile struct perf_event_mmap_page *pc, page_fields *f)
{
    f->index = pc->index;
    f->offset = pc->offset;
    f->time_enabled = pc->time_enabled;
    f->time_running = pc->time_running;
    f->capabilities = pc->capabilities;
    f->pmc_width = pc->pmc_width;
    f->time_shift = pc->time_shift;
    f->time_mult = pc->time_mult;
    f->time_offset = pc->time_offset;
    f->time_cycles = pc->time_cycles;
    f->time_mask = pc->time_mask;
}

/* rdpmc is allowed only when the kernel says so AND the event currently owns a hardware counter. */
static inline int rdpmc_allowed(const page_fields *f)
{
    return (f->capabilities & CAP_USER_RDPMC) != 0 && f->index != 0;
}

/*
 * Sign-extends the low `width` bits of a raw pmc, in unsigned arithmetic only (a signed right shift of
 * a negative value is implementation-defined in C): with s = 2^(width-1) the sign bit,
 * (v ^ s) - s == v - 2^width when bit s is set and v otherwise, modulo 2^64. The hardware counter is
 * `width` bits wide, so a value near 2^width is a small negative delta relative to `offset`
 * (the kernel programs the counter with -period and folds the rest into offset).
 */
static inline uint64_t sign_extend(uint64_t pmc, uint16_t width)
{
    if (width == 0 || width >= 64)
        return pmc;
    const uint64_t low_bits = (1ULL << width) - 1;
    const uint64_t sign_bit = 1ULL << (width - 1);
    return ((pmc & low_bits) ^ sign_bit) - sign_bit;
}

/*
 * The whole arithmetic of one counter (perf_event.h, "Bits needed to read the hw events in user-space"):
 * count = offset + sign_extend(pmc); when cap_user_time the times are extended from the last kernel
 * update to now with the TSC: delta = time_offset + (cyc >> shift) * mult + ((cyc & (2^shift - 1)) * mult >> shift),
 * i.e. cyc * mult / 2^shift split so the product cannot overflow; with cap_user_time_short the TSC is
 * narrower than 64 bits and cyc = time_cycles + ((cyc - time_cycles) & time_mask) first. running grows
 * too because rdpmc is only used while the event is live (index != 0).
 */
static inline void compute(const page_fields *f, uint64_t raw_pmc, uint64_t tsc, picollo_perf_value *out)
{
    uint64_t enabled = f->time_enabled;
    uint64_t running = f->time_running;
    if ((f->capabilities & CAP_USER_TIME) != 0 && f->time_shift < 64)
    {
        uint64_t cyc = tsc;
        if ((f->capabilities & CAP_USER_TIME_SHORT) != 0)
            cyc = f->time_cycles + ((cyc - f->time_cycles) & f->time_mask);
        const uint64_t quot = cyc >> f->time_shift;
        const uint64_t rem = cyc & ((1ULL << f->time_shift) - 1);
        const uint64_t delta = f->time_offset + quot * f->time_mult + ((rem * f->time_mult) >> f->time_shift);
        enabled += delta;
        running += delta;
    }
    out->count = (uint64_t)f->offset + sign_extend(raw_pmc, f->pmc_width);
    out->enabled = enabled;
    out->running = running;
}

int32_t picollo_perf_mmap_compute(const void *page, uint64_t raw_pmc, uint64_t tsc, picollo_perf_value *out)
{
    if (page == NULL || out == NULL)
        return PICOLLO_PERF_INVALID;
    page_fields f;
    load_fields((const volatile struct perf_event_mmap_page *)page, &f);
    if (!rdpmc_allowed(&f))
        return PICOLLO_PERF_USE_READ;
    compute(&f, raw_pmc, tsc, out);
    return PICOLLO_PERF_OK;
}

#if defined(__x86_64__)

static inline uint64_t rdpmc(uint32_t counter)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

/*
 * One page under its seqlock. The kernel bumps `lock` before and after every update of the page
 * (perf_event_update_userpage), so an unchanged `lock` around our loads proves they form one
 * consistent snapshot; rdpmc sits inside the loop because index/offset are only valid together with
 * the counter value of the same epoch. The permission check is repeated on every round: the event may
 * have been descheduled (index = 0) since the previous one.
 */
static int32_t read_one(const volatile struct perf_event_mmap_page *pc, picollo_perf_value *out)
{
    for (int retry = 0; retry < PICOLLO_PERF_MAX_RETRIES; retry++)
    {
        const uint32_t seq = pc->lock;
        COMPILER_BARRIER();
        page_fields f;
        load_fields(pc, &f);
        if (!rdpmc_allowed(&f))
            return PICOLLO_PERF_USE_READ;
        const uint64_t pmc = rdpmc(f.index - 1);
        const uint64_t tsc = (f.capabilities & CAP_USER_TIME) != 0 ? rdtsc() : 0;
        COMPILER_BARRIER();
        if (pc->lock == seq)
        {
            compute(&f, pmc, tsc, out);
            return PICOLLO_PERF_OK;
        }
    }
    return PICOLLO_PERF_CONTENDED;
}

int32_t picollo_perf_mmap_read_group(const void *const *pages, int32_t count, picollo_perf_value *out)
{
    if (pages == NULL || out == NULL || count < 0)
        return PICOLLO_PERF_INVALID;
    for (int32_t i = 0; i < count; i++)
    {
        if (pages[i] == NULL)
            return PICOLLO_PERF_INVALID;
        const int32_t status = read_one((const volatile struct perf_event_mmap_page *)pages[i], &out[i]);
        if (status != PICOLLO_PERF_OK)
            return status;
    }
    return PICOLLO_PERF_OK;
}

#else

int32_t picollo_perf_mmap_read_group(const void *const *pages, int32_t count, picollo_perf_value *out)
{
    (void)pages;
    (void)count;
    (void)out;
    return PICOLLO_PERF_NOT_SUPPORTED;
}

#endif
