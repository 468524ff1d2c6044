/*
 * html_svg.h - charts drawn as inline SVG for the html reporter: axes with
 * "nice" ticks, units in the axis labels, a <title> on every data point
 * (the browser shows it on hover) and no script at all.
 */
#ifndef SMFW_HTML_SVG_H
#define SMFW_HTML_SVG_H

#include <stddef.h>

#include "../reporter-common/rpt.h"

typedef enum html_series_style {
    HTML_SERIES_POINTS = 0, /**< scatter */
    HTML_SERIES_LINE = 1,   /**< polyline with a marker per point */
    HTML_SERIES_BARS = 2    /**< bars from y0 (or 0) to y, x = left edge, chart bar_width wide */
} html_series_style;

/** One series; arrays are borrowed for the call. */
typedef struct html_series {
    const char *name;
    const char *color;
    html_series_style style;
    const double *x;
    const double *y;
    const double *y0;    /**< bar bases (stacked bars), NULL = 0 */
    char *const *titles; /**< hover text per point, NULL = "x, y" with units */
    char *const *labels; /**< short text drawn next to each point, may be NULL */
    size_t n;
} html_series;

/** One chart. */
typedef struct html_chart {
    const char *id;
    const char *title;
    const char *x_label; /**< axis title, with its unit */
    const char *y_label;
    const char *x_unit; /**< for the automatic hover text */
    const char *y_unit;
    int x_from_zero, y_from_zero;
    double bar_width;
    const html_series *series;
    size_t n_series;
    int has_mark; /**< a highlighted point (the knee of a sweep) */
    double mark_x, mark_y;
    const char *mark_label;
    const char *note; /**< a line under the chart, may be NULL */
} html_chart;

/** Append a <figure> holding the chart's <svg>. */
void html_chart_render(smfw_buf *b, const html_chart *c);

/** A figure saying why a chart has no data (no <svg>). */
void html_chart_empty(smfw_buf *b, const char *id, const char *title, const char *why);

/** Append text escaped for HTML/XML content and attribute values. */
void html_escape(smfw_buf *b, const char *s);

#endif /* SMFW_HTML_SVG_H */
