/*
 * test_stats_numpy.c - smfw's statistics bit for bit against numpy itself.
 *
 * Seeded arrays (sizes around numpy's pairwise blocks of 8 and 128 and its
 * 8192-element reduce buffer, mixed magnitudes, integers-as-doubles,
 * nanosecond-scale values, ties) go to a
 * scratch file as C hex floats; SMFW_NUMPY_PYTHON computes
 * np.percentile(method="linear"), np.mean, np.std, np.sum, np.min and np.max
 * and prints float.hex() of each. Every smfw result must have the same bit
 * pattern. The test also counts the cases that only numpy's _lerp branch
 * (g >= 0.5) and only pairwise summation get right, and requires many of
 * each, so dropping either from core/stats.c fails here (as do the
 * (n - 1) * p / 100 virtual index and a sum without the 8192 blocks).
 */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results.h>

#include "smfw_test.h"

static uint64_t rng_state;

static uint64_t rng_next(void) { /* splitmix64: the arrays are the same on every run */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double rng_unit(void) {
    return (double)(rng_next() >> 11) * 0x1.0p-53;
}

/* One value of kind k. */
static double gen_value(int kind) {
    switch (kind) {
    case 0: /* integer nanoseconds, 0.1 ms .. 10 s */
        return (double)(100000 + rng_next() % 10000000000ULL);
    case 1: /* mixed magnitudes 1e-6 .. 1e9, either sign now and then */
    {
        double v = (1.0 + rng_unit()) * pow(10.0, (double)(int)(rng_next() % 16) - 6.0);
        return rng_next() % 8 == 0 ? -v : v;
    }
    case 2: /* uniform [0, 1) */
        return rng_unit();
    case 3: /* ms values as AIPerf writes them (ns * 1e-6) */
        return (double)(1000 + rng_next() % 100000000ULL) * 1e-6;
    case 4: /* small integers with many ties (token counts) */
        return (double)(rng_next() % 7 + 200);
    case 5: /* ITL-like: integer ns difference over a token count */
        return (double)(1000000000 + rng_next() % 9000000000ULL) / (double)(1 + rng_next() % 400);
    default: /* epoch nanoseconds (1.76e18: beyond 2^53, so not every integer) */
        return (double)(1759522419154568925LL + (int64_t)(rng_next() % 10000000000ULL));
    }
}

static const char *const numpy_script =
    "import sys, numpy as np\n"
    "q = [1, 5, 10, 25, 50, 75, 90, 95, 99]\n"
    "out = open(sys.argv[2], 'w')\n"
    "for line in open(sys.argv[1]):\n"
    "    a = np.array([float.fromhex(t) for t in line.split()], dtype=np.float64)\n"
    "    r = list(np.percentile(a, q, method='linear'))\n"
    "    r += [np.mean(a), np.std(a), np.sum(a), np.min(a), np.max(a)]\n"
    "    out.write(' '.join(float(x).hex() for x in r) + '\\n')\n";

#define N_RESULTS (SMFW_PERCENTILE_COUNT + 5)

typedef struct {
    size_t n;
    int kind;
    double *v;
} case_t;

static int same_bits(double a, double b) {
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y;
}

static double naive_sum(const double *v, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return s;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

START_TEST(stats_bit_exact_with_numpy) {
    static const size_t sizes[] = {
        1,    2,    3,    4,    5,    6,    7,    8,    9,    10,    11,    12,   13,
        15,   16,   17,   23,   24,   25,   31,   32,   33,   63,    64,    65,   89,
        100,  101,  120,  127,  128,  129,  130,  135,  136,  137,   255,   256,  257,
        1000, 1023, 1024, 1025, 4097, 8191, 8192, 8193, 8200, 16385, 21537, 40000};
    enum { KINDS = 7 };
    size_t n_cases = sizeof sizes / sizeof sizes[0] * KINDS;
    case_t *cases = calloc(n_cases, sizeof *cases);
    ck_assert_ptr_nonnull(cases);
    rng_state = 20251003;
    char *dir = smfw_test_tmpdir();
    char in_path[4096], out_path[4096], py_path[4096], cmd[16384];
    snprintf(in_path, sizeof in_path, "%s/arrays.txt", dir);
    snprintf(out_path, sizeof out_path, "%s/numpy.txt", dir);
    snprintf(py_path, sizeof py_path, "%s/oracle.py", dir);
    ck_assert_int_eq(smfw_test_write_file(py_path, numpy_script), 0);
    FILE *f = fopen(in_path, "w");
    ck_assert_ptr_nonnull(f);
    size_t c = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int k = 0; k < KINDS; k++, c++) {
            cases[c].n = sizes[s];
            cases[c].kind = k;
            cases[c].v = malloc(sizes[s] * sizeof(double));
            ck_assert_ptr_nonnull(cases[c].v);
            for (size_t i = 0; i < sizes[s]; i++) {
                cases[c].v[i] = gen_value(k);
                fprintf(f, i ? " %a" : "%a", cases[c].v[i]);
            }
            fputc('\n', f);
        }
    ck_assert_int_eq(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' '%s'", SMFW_NUMPY_PYTHON, py_path, in_path, out_path);
    ck_assert_msg(system(cmd) == 0, "numpy oracle failed: %s", cmd);
    char *text = smfw_test_read_file(out_path, NULL);
    ck_assert_ptr_nonnull(text);

    int lerp_hi = 0, lerp_only = 0, lerp_lo = 0, pairwise_only = 0, compared = 0;
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    for (c = 0; c < n_cases; c++, line = strtok_r(NULL, "\n", &save)) {
        ck_assert_msg(line != NULL, "numpy printed %zu lines, want %zu", c, n_cases);
        double want[N_RESULTS];
        char *p = line;
        for (int i = 0; i < N_RESULTS; i++) {
            char *end;
            want[i] = strtod(p, &end);
            ck_assert_msg(end != p, "case %zu: bad numpy output '%s'", c, line);
            p = end;
        }
        const case_t *k = &cases[c];
        smfw_stats s, ms;
        ck_assert_int_eq(smfw_stats_compute(k->v, k->n, 1.0, &s), SMFW_OK);
        /* Scaled statistics are numpy's base-unit results times the factor (AIPerf's order). */
        ck_assert_int_eq(smfw_stats_compute(k->v, k->n, 1e-6, &ms), SMFW_OK);
        double got[N_RESULTS];
        memcpy(got, s.p, sizeof s.p);
        got[SMFW_PERCENTILE_COUNT + 0] = s.avg;
        got[SMFW_PERCENTILE_COUNT + 1] = s.std;
        got[SMFW_PERCENTILE_COUNT + 2] = s.sum;
        got[SMFW_PERCENTILE_COUNT + 3] = s.min;
        got[SMFW_PERCENTILE_COUNT + 4] = s.max;
        double gots[N_RESULTS];
        memcpy(gots, ms.p, sizeof ms.p);
        gots[SMFW_PERCENTILE_COUNT + 0] = ms.avg;
        gots[SMFW_PERCENTILE_COUNT + 1] = ms.std;
        gots[SMFW_PERCENTILE_COUNT + 2] = ms.sum;
        gots[SMFW_PERCENTILE_COUNT + 3] = ms.min;
        gots[SMFW_PERCENTILE_COUNT + 4] = ms.max;
        static const char *const names[N_RESULTS] = {"p1",  "p5",  "p10", "p25", "p50",
                                                     "p75", "p90", "p95", "p99", "mean",
                                                     "std", "sum", "min", "max"};
        for (int i = 0; i < N_RESULTS; i++) {
            ck_assert_msg(same_bits(got[i], want[i]),
                          "n=%zu kind=%d %s: smfw %a numpy %a (%.17g vs %.17g)", k->n, k->kind,
                          names[i], got[i], want[i], got[i], want[i]);
            ck_assert_msg(same_bits(gots[i], want[i] * 1e-6),
                          "n=%zu kind=%d %s x1e-6: smfw %a numpy %a", k->n, k->kind, names[i],
                          gots[i], want[i] * 1e-6);
            compared += 2;
        }
        /* Coverage: which numpy rules these arrays exercise. */
        double *sorted = malloc(k->n * sizeof *sorted);
        ck_assert_ptr_nonnull(sorted);
        memcpy(sorted, k->v, k->n * sizeof *sorted);
        qsort(sorted, k->n, sizeof *sorted, cmp_double);
        for (int i = 0; i < SMFW_PERCENTILE_COUNT && k->n > 1; i++) {
            double h = (double)(k->n - 1) * (smfw_percentiles[i] / 100.0);
            double lo = floor(h), g = h - lo;
            if ((size_t)lo >= k->n - 1 || g == 0) continue;
            double a = sorted[(size_t)lo], b = sorted[(size_t)lo + 1];
            if (g >= 0.5) {
                lerp_hi++;
                if (!same_bits(a + (b - a) * g, want[i])) lerp_only++;
            } else {
                lerp_lo++;
            }
        }
        if (!same_bits(naive_sum(k->v, k->n), want[SMFW_PERCENTILE_COUNT + 2])) pairwise_only++;
        free(sorted);
    }
    /* The arrays must reach both interpolation branches and catch the shortcuts. */
    ck_assert_int_ge(lerp_hi, 200);
    ck_assert_int_ge(lerp_lo, 200);
    ck_assert_msg(lerp_only >= 20, "only %d percentiles need numpy's g >= 0.5 branch", lerp_only);
    ck_assert_msg(pairwise_only >= 20, "only %d sums need pairwise summation", pairwise_only);
    ck_assert_int_eq(compared, (int)n_cases * N_RESULTS * 2);
    fprintf(stderr,
            "numpy oracle: %zu arrays, %d bit patterns; g>=0.5 %d (naive lerp wrong %d), "
            "g<0.5 %d; naive sum wrong %d\n",
            n_cases, compared, lerp_hi, lerp_only, lerp_lo, pairwise_only);
    for (c = 0; c < n_cases; c++) free(cases[c].v);
    free(cases);
    free(text);
    smfw_test_rmtree(dir);
    free(dir);
}
END_TEST

int main(void) {
    Suite *s = suite_create("stats_numpy");
    TCase *tc = tcase_create("numpy");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, stats_bit_exact_with_numpy);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
