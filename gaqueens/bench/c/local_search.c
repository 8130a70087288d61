/*
 * Sosic and Gu's local search for N-Queens in C: the yardstick of gaqueens' benchmark.
 *
 *     cc -O2 -o local_search local_search.c
 *     ./local_search N SEED [START_TRIES RESTART_FACTOR BUDGET]
 *
 * The same algorithm as gaqueens.baselines.local_search (its docstring describes it), step
 * for step: the same greedy randomised start, the same rounds of repair over the attacked
 * queens, the same restarts, the same unit of work (swaps tried) and the same random
 * numbers (SplitMix64, a draw below `span` taken as (int)(u * span) with u the output's top
 * 53 bits as a fraction of 1), so that a seed gives the same run here as there: the
 * benchmark checks it by the swaps tried and a checksum of the placement.
 *
 * Prints one line: solved (0 or 1), attacking pairs left, swaps tried, the seconds of the
 * search alone (arrays allocated, searched, nothing printed), the checksum
 * sum over rows r of (2r + 1) * column(r), modulo 2^64, the process's peak resident
 * memory in KB (VmHWM of /proc/self/status on Linux; 0 where it cannot be read), and the
 * CPU seconds of the search (what the search cost this process, whatever else the machine
 * was running).
 *
 * The arrays are aligned to 2 MB and, where the system has it, marked for transparent huge
 * pages (madvise MADV_HUGEPAGE), as numpy marks the large arrays that gaqueens' search gets
 * (gaqueens.baselines.local_search_kernel): the search reads them at scattered places, and
 * on hundreds of megabytes most of those reads would otherwise miss the address cache.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

static uint64_t state;

/* count int32s, 2 MB aligned, marked for huge pages where the system allows it; or NULL. */
static int32_t *array(int64_t count)
{
    size_t align = (size_t)2 << 20;
    size_t size = ((size_t)count * sizeof(int32_t) + align - 1) / align * align;
    void *memory = NULL;
    if (posix_memalign(&memory, align, size) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(memory, size, MADV_HUGEPAGE);
#endif
    return memory;
}

/* The peak resident memory of this process in KB, or 0 where /proc does not tell it. */
static long peak_kb(void)
{
    char line[256];
    long kb = 0;
    FILE *status = fopen("/proc/self/status", "r");
    if (!status)
        return 0;
    while (fgets(line, sizeof line, status))
        if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
            break;
    fclose(status);
    return kb;
}

static int64_t draw(int64_t span)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (int64_t)((double)(z >> 11) * 0x1.0p-53 * (double)span);
}

static int64_t n, m;
static int32_t *columns, *down, *up, *listed;

static int64_t greedy_start(int64_t tries)
{
    int64_t draws = 0;
    for (int64_t i = 0; i < n; i++)
        columns[i] = (int32_t)i;
    for (int64_t i = 0; i < 2 * n - 1; i++)
        down[i] = up[i] = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t j = i, t = 0;
        int32_t c = 0;
        while (t < tries) {
            j = i + draw(n - i);
            c = columns[j];
            t++;
            if (!down[i - c + m] && !up[i + c])
                break;
        }
        draws += t;
        columns[j] = columns[i];
        columns[i] = c;
        down[i - c + m]++;
        up[i + c]++;
    }
    return draws;
}

static int64_t pairs(const int32_t *counts)
{
    int64_t total = 0;
    for (int64_t d = 0; d < 2 * n - 1; d++)
        total += (int64_t)counts[d] * (counts[d] - 1) / 2;
    return total;
}

/* Swaps the columns of rows i and j; returns the change in attacking pairs. */
static int64_t swap(int64_t i, int64_t j)
{
    int32_t a = columns[i], b = columns[j];
    int64_t change = 0;
    down[i - a + m]--, up[i + a]--;
    change -= down[i - a + m] + up[i + a];
    down[j - b + m]--, up[j + b]--;
    change -= down[j - b + m] + up[j + b];
    change += down[i - b + m] + up[i + b];
    down[i - b + m]++, up[i + b]++;
    change += down[j - a + m] + up[j + a];
    down[j - a + m]++, up[j + a]++;
    columns[i] = b, columns[j] = a;
    return change;
}

static int64_t attacked(void)
{
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++)
        if (down[i - columns[i] + m] > 1 || up[i + columns[i]] > 1)
            listed[count++] = (int32_t)i;
    return count;
}

static int64_t repair(int64_t patience, int64_t budget, int64_t *tries_made)
{
    int64_t conflicts = pairs(down) + pairs(up);
    int64_t tries = 0, fruitless = 0, count = 0, since = 0;
    while (conflicts && fruitless < patience && tries < budget) {
        if (count == 0 || since >= n / 64)
            count = attacked(), since = 0;
        int64_t kept = 0;
        for (int64_t k = 0; k < count; k++) {
            int64_t i = listed[k];
            if (down[i - columns[i] + m] < 2 && up[i + columns[i]] < 2)
                continue;
            int64_t j = draw(m);
            j += j >= i;
            tries++, since++;
            int64_t change = swap(i, j);
            if (change < 0)
                conflicts += change, fruitless = 0;
            else
                swap(i, j), fruitless++;
            listed[kept++] = (int32_t)i;
            if (!conflicts || fruitless >= patience || tries >= budget)
                break;
        }
        count = kept;
    }
    *tries_made = tries;
    return conflicts;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 6) {
        fprintf(stderr, "usage: %s N SEED [START_TRIES RESTART_FACTOR BUDGET]\n", argv[0]);
        return 2;
    }
    n = strtoll(argv[1], NULL, 10);
    state = strtoull(argv[2], NULL, 10);
    int64_t tries = argc == 6 ? strtoll(argv[3], NULL, 10) : 50;
    int64_t factor = argc == 6 ? strtoll(argv[4], NULL, 10) : 32;
    int64_t budget = argc == 6 ? strtoll(argv[5], NULL, 10) : 1000000000;
    if (n < 4 || tries < 1 || factor < 1 || budget < 1) {
        fprintf(stderr, "N must be 4 or more, the settings 1 or more\n");
        return 2;
    }
    m = n - 1;
    struct timespec start, end, cpu_start, cpu_end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_start);
    columns = array(n);
    listed = array(n);
    down = array(2 * n - 1);
    up = array(2 * n - 1);
    if (!columns || !listed || !down || !up) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    int64_t tried = 0, conflicts;
    for (;;) {
        int64_t tries_made;
        tried += greedy_start(tries);
        conflicts = repair(factor * n, budget - tried, &tries_made);
        tried += tries_made;
        if (!conflicts || tried >= budget)
            break;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_end);
    uint64_t checksum = 0;
    for (int64_t r = 0; r < n; r++)
        checksum += (uint64_t)(2 * r + 1) * (uint64_t)columns[r];
    printf("%d %lld %lld %.6f %llu %ld %.6f\n", conflicts == 0, (long long)conflicts,
           (long long)tried,
           (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec),
           (unsigned long long)checksum, peak_kb(),
           (double)(cpu_end.tv_sec - cpu_start.tv_sec)
           + 1e-9 * (double)(cpu_end.tv_nsec - cpu_start.tv_nsec));
    return 0;
}
