/*
 * The published GA for N-Queens in plain C: the speed floor of gaqueens' benchmark.
 *
 *     cc -O2 -o ga ga.c
 *     ./ga N FIRST LAST [MU LAMBDA TOURNAMENT GENERATIONS TARGET]
 *
 * The same operators and settings as gaqueens' published GA (gaqueens.ga.settings: population
 * MU = 20, offspring LAMBDA = 20 a generation, tournaments of 2, no crossover, one swap per
 * child, mu+lambda, the MU best survive with children first on ties, stop at TARGET = 0
 * attacking pairs or after GENERATIONS = 50,000), run for the seeds FIRST..LAST one after
 * the other. It is not the same run as gaqueens' for a seed (its random numbers are
 * SplitMix64's, a draw below `span` taken as (int)(u * span), u the top 53 bits of the output
 * as a fraction of 1), so only its cost per evaluation compares, and its evaluations only as a
 * distribution.
 *
 * What makes it fast:
 * - a pointer pool: MU + LAMBDA individuals (a genome and its diagonal counts side by side)
 *   allocated once; the population is the first MU pointers, kept sorted by fitness, and a
 *   generation's children are written into the slots the last survivors left;
 * - survivors reordered rather than copied: the children sorted (insertion sort, stable) and
 *   merged with the sorted population, children first on ties, by their pointers alone;
 * - incremental diagonal counts: a child is its parent's genome and counts copied, then one
 *   swap, whose change of the attacking pairs comes from the four diagonals each of its two
 *   queens leaves and enters, not from a recount.
 *
 * Prints one line: runs, runs solved, evaluations (MU at the start, LAMBDA a generation, as
 * gaqueens counts them), the seconds of all the runs (set-up included, nothing printed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t state;

static int64_t draw(int64_t span)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (int64_t)((double)(z >> 11) * 0x1.0p-53 * (double)span);
}

typedef struct {
    int64_t fitness;  /* attacking pairs */
    uint16_t *cells;  /* n columns, then 2n - 1 falling and 2n - 1 rising diagonal counts */
} Individual;

static int n;
static size_t width;  /* cells per individual */

static uint16_t *down_of(Individual *x) { return x->cells + n; }
static uint16_t *up_of(Individual *x) { return x->cells + n + (2 * n - 1); }

/* Moves the queen of row r off column `from` onto column `to`: the change of the pairs. */
static int64_t move(Individual *x, int r, int from, int to)
{
    uint16_t *down = down_of(x), *up = up_of(x);
    int64_t change = 0;
    change -= --down[r - from + n - 1];
    change -= --up[r + from];
    change += down[r - to + n - 1]++;
    change += up[r + to]++;
    return change;
}

static void random_genome(Individual *x)
{
    uint16_t *columns = x->cells;
    for (int i = 0; i < n; i++)
        columns[i] = (uint16_t)i;
    for (int i = n - 1; i > 0; i--) {  /* Fisher-Yates */
        int j = (int)draw(i + 1);
        uint16_t t = columns[i];
        columns[i] = columns[j];
        columns[j] = t;
    }
    memset(x->cells + n, 0, sizeof(uint16_t) * (width - n));
    uint16_t *down = down_of(x), *up = up_of(x);
    int64_t pairs = 0;
    for (int r = 0; r < n; r++) {
        pairs += down[r - columns[r] + n - 1]++;
        pairs += up[r + columns[r]]++;
    }
    x->fitness = pairs;
}

/* Sorts pointers by fitness, stable (insertion sort: a few dozen at most). */
static void sort(Individual **xs, int count)
{
    for (int i = 1; i < count; i++) {
        Individual *x = xs[i];
        int j = i - 1;
        while (j >= 0 && xs[j]->fitness > x->fitness) {
            xs[j + 1] = xs[j];
            j--;
        }
        xs[j + 1] = x;
    }
}

/* One run; returns whether it reached the target, and adds its evaluations. */
static int run(int mu, int lambda, int size, int64_t generations, int64_t target,
               Individual **pool, Individual **children, Individual **merged, int64_t *evaluations)
{
    for (int k = 0; k < mu; k++)
        random_genome(pool[k]);
    sort(pool, mu);
    *evaluations += mu;
    int64_t best = pool[0]->fitness;
    for (int64_t g = 0; g < generations && best > target; g++) {
        for (int k = 0; k < lambda; k++) {
            int winner = (int)draw(mu);
            for (int t = 1; t < size; t++) {  /* the first drawn of the lowest fitness */
                int other = (int)draw(mu);
                if (pool[other]->fitness < pool[winner]->fitness)
                    winner = other;
            }
            Individual *child = pool[mu + k], *parent = pool[winner];
            memcpy(child->cells, parent->cells, sizeof(uint16_t) * width);
            int i = (int)draw(n), j = (int)draw(n - 1);
            j += j >= i;
            int ci = child->cells[i], cj = child->cells[j];
            int64_t change = move(child, i, ci, cj) + move(child, j, cj, ci);
            child->cells[i] = (uint16_t)cj;
            child->cells[j] = (uint16_t)ci;
            child->fitness = parent->fitness + change;
            children[k] = child;
        }
        *evaluations += lambda;
        sort(children, lambda);
        /* merge: children first on ties; the survivors are the first mu, the rest the
         * slots of the next generation's children */
        int a = 0, b = 0, m = 0;
        while (m < mu + lambda) {
            if (b >= mu || (a < lambda && children[a]->fitness <= pool[b]->fitness))
                merged[m++] = children[a++];
            else
                merged[m++] = pool[b++];
        }
        memcpy(pool, merged, sizeof(Individual *) * (mu + lambda));
        if (pool[0]->fitness < best)
            best = pool[0]->fitness;
    }
    return best <= target;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s N FIRST LAST [MU LAMBDA TOURNAMENT GENERATIONS TARGET]\n",
                argv[0]);
        return 2;
    }
    n = atoi(argv[1]);
    int64_t first = atoll(argv[2]), last = atoll(argv[3]);
    int mu = argc > 4 ? atoi(argv[4]) : 20, lambda = argc > 5 ? atoi(argv[5]) : 20;
    int size = argc > 6 ? atoi(argv[6]) : 2;
    int64_t generations = argc > 7 ? atoll(argv[7]) : 50000, target = argc > 8 ? atoll(argv[8]) : 0;
    if (n < 2 || n > 65535 || mu < 1 || lambda < 1 || size < 1 || last < first) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    width = (size_t)n + 2 * (2 * (size_t)n - 1);
    int slots = mu + lambda;
    uint16_t *cells = malloc(sizeof(uint16_t) * width * slots);
    Individual *individuals = malloc(sizeof(Individual) * slots);
    Individual **pool = malloc(sizeof(Individual *) * slots);
    Individual **children = malloc(sizeof(Individual *) * lambda);
    Individual **merged = malloc(sizeof(Individual *) * slots);
    if (!cells || !individuals || !pool || !children || !merged) {
        fprintf(stderr, "out of memory\n");
        return 3;
    }
    for (int k = 0; k < slots; k++) {
        individuals[k].cells = cells + width * k;
        pool[k] = &individuals[k];
    }
    int64_t evaluations = 0, solved = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int64_t seed = first; seed <= last; seed++) {
        state = (uint64_t)seed;
        solved += run(mu, lambda, size, generations, target, pool, children, merged,
                      &evaluations);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%lld %lld %lld %.9f\n", (long long)(last - first + 1), (long long)solved,
           (long long)evaluations, seconds);
    return 0;
}
