/*
 * instance_types.c - SageMaker's AIRecommendationInstanceType enum with the
 * mock's speed model and illustrative prices (see instance_types.h and
 * docs/mock.md, "AI recommendation jobs").
 *
 * time_scale = the family's factor (ml.g6e = 1.0: L40S) x a factor for the
 * accelerators a type has (1: 1.0, 2: 0.85, 4: 0.7, 8: 0.55), so a larger
 * type of a family is faster and the families keep their order. The prices
 * are round figures of the on-demand order of magnitude, for ranking by cost
 * only: they are not AWS's prices and change nothing else.
 */
#include "instance_types.h"

#include <string.h>

#define GPU_FACTOR(n) ((n) >= 8 ? 0.55 : (n) >= 4 ? 0.7 : (n) >= 2 ? 0.85 : 1.0)
#define T(name, family, gpus, price)                                                               \
    { name, gpus, (family)*GPU_FACTOR(gpus), price }

/* Family factors: A10G, L4, L40S, RTX PRO 6000, V100, A100, H100, H200. */
#define G5  1.5
#define G6  1.8
#define G6E 1.0
#define G7E 0.7
#define P3  2.0
#define P4  0.6
#define P5  0.4
#define P5E 0.35

static const mock_instance_type types[] = {
    T("ml.g5.xlarge", G5, 1, 1.41),        T("ml.g5.2xlarge", G5, 1, 1.52),
    T("ml.g5.4xlarge", G5, 1, 2.03),       T("ml.g5.8xlarge", G5, 1, 3.06),
    T("ml.g5.12xlarge", G5, 4, 7.09),      T("ml.g5.16xlarge", G5, 1, 5.67),
    T("ml.g5.24xlarge", G5, 4, 10.18),     T("ml.g5.48xlarge", G5, 8, 20.36),
    T("ml.g6.xlarge", G6, 1, 1.01),        T("ml.g6.2xlarge", G6, 1, 1.22),
    T("ml.g6.4xlarge", G6, 1, 1.65),       T("ml.g6.8xlarge", G6, 1, 2.52),
    T("ml.g6.12xlarge", G6, 4, 5.75),      T("ml.g6.16xlarge", G6, 1, 4.25),
    T("ml.g6.24xlarge", G6, 4, 8.34),      T("ml.g6.48xlarge", G6, 8, 16.69),
    T("ml.g6e.xlarge", G6E, 1, 2.33),      T("ml.g6e.2xlarge", G6E, 1, 2.81),
    T("ml.g6e.4xlarge", G6E, 1, 3.77),     T("ml.g6e.8xlarge", G6E, 1, 5.68),
    T("ml.g6e.12xlarge", G6E, 4, 13.12),   T("ml.g6e.16xlarge", G6E, 1, 9.50),
    T("ml.g6e.24xlarge", G6E, 4, 18.74),   T("ml.g6e.48xlarge", G6E, 8, 37.48),
    T("ml.g7e.2xlarge", G7E, 1, 4.20),     T("ml.g7e.4xlarge", G7E, 1, 5.00),
    T("ml.g7e.8xlarge", G7E, 1, 6.60),     T("ml.g7e.12xlarge", G7E, 2, 10.50),
    T("ml.g7e.24xlarge", G7E, 4, 21.00),   T("ml.g7e.48xlarge", G7E, 8, 42.00),
    T("ml.p3.2xlarge", P3, 1, 3.83),       T("ml.p3.8xlarge", P3, 4, 14.69),
    T("ml.p3.16xlarge", P3, 8, 28.15),     T("ml.p4d.24xlarge", P4, 8, 37.69),
    T("ml.p4de.24xlarge", P4, 8, 47.11),   T("ml.p5.4xlarge", P5, 1, 8.00),
    T("ml.p5.48xlarge", P5, 8, 113.07),    T("ml.p5e.48xlarge", P5E, 8, 120.00),
    T("ml.p5en.48xlarge", P5E, 8, 126.00),
};

const mock_instance_type *mock_instance_types(size_t *count) {
    *count = sizeof types / sizeof types[0];
    return types;
}

const mock_instance_type *mock_instance_type_find(const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(types[i].name, name)) return &types[i];
    return NULL;
}

double mock_instance_time_scale(const char *name) {
    const mock_instance_type *t = mock_instance_type_find(name);
    return t ? t->time_scale : 1.0;
}
