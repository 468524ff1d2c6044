/*
 * html_svg.c - the SVG chart renderer of the html reporter.
 *
 * Each chart is a fixed 720x340 viewBox (it scales with the page): a plot
 * area with grid lines at "nice" tick values (1, 2, 2.5 or 5 times a power
 * of ten), tick labels, axis titles with units, then the series. Every data
 * point is an element of class "pt" carrying a <title>, so hovering shows
 * its values and a test can count the points of each chart.
 */
#include "html_svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HTML_W  720.0
#define HTML_H  340.0
#define HTML_ML 78.0 /* room for y tick labels and the y axis title */
#define HTML_MR 24.0
#define HTML_MT 16.0
#define HTML_MB 58.0 /* x tick labels and the x axis title */

void html_escape(smfw_buf *b, const char *s) {
    if (!s) return;
    const char *run = s;
    for (const char *p = s; *p; p++) {
        const char *rep = NULL;
        switch (*p) {
        case '&':
            rep = "&amp;";
            break;
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        case '"':
            rep = "&quot;";
            break;
        case '\'':
            rep = "&#39;";
            break;
        default:
            break;
        }
        if (rep) {
            smfw_buf_append(b, run, (size_t)(p - run));
            smfw_buf_puts(b, rep);
            run = p + 1;
        }
    }
    smfw_buf_puts(b, run);
}

typedef struct html_axis {
    double lo, hi, step;
    int decimals;
} html_axis;

/* A step of 1, 2, 2.5 or 5 x 10^k giving about `target` intervals. */
static void html_axis_nice(html_axis *a, double min, double max, int target) {
    if (!isfinite(min) || !isfinite(max)) min = 0, max = 1;
    if (max < min) {
        double t = min;
        min = max;
        max = t;
    }
    if (max == min) {
        double pad = fabs(max) > 0 ? fabs(max) * 0.1 : 1.0;
        min -= pad;
        max += pad;
    }
    double raw = (max - min) / target;
    double mag = pow(10.0, floor(log10(raw)));
    double f = raw / mag;
    double nice = f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 2.5 ? 2.5 : f <= 5.0 ? 5.0 : 10.0;
    a->step = nice * mag;
    a->lo = floor(min / a->step + 1e-9) * a->step;
    a->hi = ceil(max / a->step - 1e-9) * a->step;
    if (a->hi <= a->lo) a->hi = a->lo + a->step;
    int d = (int)-floor(log10(a->step) + 1e-9);
    if (nice == 2.5) d++;
    a->decimals = d < 0 ? 0 : d > 9 ? 9 : d;
}

static double html_map(const html_axis *a, double v, double from, double to) {
    return from + (v - a->lo) / (a->hi - a->lo) * (to - from);
}

static void html_num(double v, int decimals, char out[RPT_NUM_MAX]) {
    if (fabs(v) < 1e-12) v = 0.0; /* no "-0.00" tick */
    rpt_human(v, decimals, out);
}

/* Value text for hover titles: enough digits for small numbers. */
static void html_value(double v, char out[RPT_NUM_MAX]) {
    double a = fabs(v);
    rpt_human(v, a >= 100 ? 2 : a >= 1 ? 3 : a >= 0.01 ? 4 : 6, out);
}

static void html_chart_range(const html_chart *c, double *xmin, double *xmax, double *ymin,
                             double *ymax) {
    *xmin = *ymin = INFINITY;
    *xmax = *ymax = -INFINITY;
    for (size_t s = 0; s < c->n_series; s++) {
        const html_series *se = &c->series[s];
        for (size_t i = 0; i < se->n; i++) {
            double x = se->x[i], y = se->y[i];
            if (!isfinite(x) || !isfinite(y)) continue;
            double x2 = se->style == HTML_SERIES_BARS ? x + c->bar_width : x;
            double y0 = se->y0 ? se->y0[i] : (se->style == HTML_SERIES_BARS ? 0.0 : y);
            *xmin = fmin(*xmin, x);
            *xmax = fmax(*xmax, x2);
            *ymin = fmin(*ymin, fmin(y, y0));
            *ymax = fmax(*ymax, fmax(y, y0));
        }
    }
    if (c->has_mark) {
        *xmin = fmin(*xmin, c->mark_x);
        *xmax = fmax(*xmax, c->mark_x);
        *ymin = fmin(*ymin, c->mark_y);
        *ymax = fmax(*ymax, c->mark_y);
    }
    if (!isfinite(*xmin)) *xmin = 0, *xmax = 1;
    if (!isfinite(*ymin)) *ymin = 0, *ymax = 1;
    if (c->x_from_zero && *xmin > 0) *xmin = 0;
    if (c->y_from_zero && *ymin > 0) *ymin = 0;
    /* All zeros (no failed request): a 0..1 axis rather than one centred on 0. */
    if (c->x_from_zero && *xmin == 0 && *xmax <= 0) *xmax = 1;
    if (c->y_from_zero && *ymin == 0 && *ymax <= 0) *ymax = 1;
}

static void html_point_title(smfw_buf *b, const html_chart *c, const html_series *se, size_t i) {
    smfw_buf_puts(b, "<title>");
    if (se->titles && se->titles[i]) {
        html_escape(b, se->titles[i]);
    } else {
        char xs[RPT_NUM_MAX], ys[RPT_NUM_MAX];
        html_value(se->x[i], xs);
        html_value(se->y[i], ys);
        if (c->n_series > 1 && se->name) {
            html_escape(b, se->name);
            smfw_buf_puts(b, ": ");
        }
        smfw_buf_printf(b, "%s %s, %s %s", xs, c->x_unit ? c->x_unit : "", ys,
                        c->y_unit ? c->y_unit : "");
    }
    smfw_buf_puts(b, "</title>");
}

void html_chart_empty(smfw_buf *b, const char *id, const char *title, const char *why) {
    smfw_buf_puts(b, "<figure class=\"chart chart-empty\" id=\"fig-");
    html_escape(b, id);
    smfw_buf_puts(b, "\"><figcaption>");
    html_escape(b, title);
    smfw_buf_puts(b, "</figcaption><p class=\"note\">");
    html_escape(b, why);
    smfw_buf_puts(b, "</p></figure>\n");
}

void html_chart_render(smfw_buf *b, const html_chart *c) {
    double xmin, xmax, ymin, ymax;
    html_chart_range(c, &xmin, &xmax, &ymin, &ymax);
    html_axis ax, ay;
    html_axis_nice(&ax, xmin, xmax, 8);
    html_axis_nice(&ay, ymin, ymax, 6);
    const double px0 = HTML_ML, px1 = HTML_W - HTML_MR, py0 = HTML_H - HTML_MB, py1 = HTML_MT;

    size_t points = 0;
    for (size_t s = 0; s < c->n_series; s++) points += c->series[s].n;

    smfw_buf_puts(b, "<figure class=\"chart\" id=\"fig-");
    html_escape(b, c->id);
    smfw_buf_puts(b, "\"><figcaption>");
    html_escape(b, c->title);
    smfw_buf_puts(b, "</figcaption>\n");
    smfw_buf_printf(b,
                    "<svg class=\"chart-svg\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 "
                    "%.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\" data-points=\"%zu\" "
                    "id=\"",
                    HTML_W, HTML_H, HTML_W, HTML_H, points);
    html_escape(b, c->id);
    smfw_buf_puts(b, "\"><title>");
    html_escape(b, c->title);
    smfw_buf_puts(b, "</title>\n");
    smfw_buf_printf(b,
                    "<rect class=\"plot\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
                    px0, py1, px1 - px0, py0 - py1);

    /* Grid and tick labels. */
    char num[RPT_NUM_MAX];
    smfw_buf_puts(b, "<g class=\"grid\">");
    for (int i = 0;; i++) {
        double v = ax.lo + i * ax.step;
        if (v > ax.hi + ax.step * 1e-6 || i > 40) break;
        double x = html_map(&ax, v, px0, px1);
        html_num(v, ax.decimals, num);
        smfw_buf_printf(
            b,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
            "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
            x, py1, x, py0, x, py0 + 16, num);
    }
    for (int i = 0;; i++) {
        double v = ay.lo + i * ay.step;
        if (v > ay.hi + ay.step * 1e-6 || i > 40) break;
        double y = html_map(&ay, v, py0, py1);
        html_num(v, ay.decimals, num);
        smfw_buf_printf(b,
                        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                        "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
                        px0, y, px1, y, px0 - 6, y + 4, num);
    }
    smfw_buf_puts(b, "</g>\n");
    smfw_buf_printf(b,
                    "<g class=\"axes\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/></g>\n",
                    px0, py0, px1, py0, px0, py0, px0, py1);
    smfw_buf_printf(b, "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                    (px0 + px1) / 2, HTML_H - 12);
    html_escape(b, c->x_label);
    smfw_buf_printf(b,
                    "</text>\n<text class=\"axis-label\" transform=\"translate(18 %.1f) "
                    "rotate(-90)\" text-anchor=\"middle\">",
                    (py0 + py1) / 2);
    html_escape(b, c->y_label);
    smfw_buf_puts(b, "</text>\n");

    /* Series. */
    for (size_t s = 0; s < c->n_series; s++) {
        const html_series *se = &c->series[s];
        const char *color = se->color ? se->color : "#1f77b4";
        smfw_buf_puts(b, "<g class=\"series\" data-series=\"");
        html_escape(b, se->name ? se->name : "");
        smfw_buf_printf(b, "\" fill=\"%s\" stroke=\"%s\">", color, color);
        if (se->style == HTML_SERIES_LINE && se->n > 1) {
            smfw_buf_puts(b, "<polyline class=\"line\" fill=\"none\" points=\"");
            for (size_t i = 0; i < se->n; i++)
                smfw_buf_printf(b, "%s%.1f,%.1f", i ? " " : "", html_map(&ax, se->x[i], px0, px1),
                                html_map(&ay, se->y[i], py0, py1));
            smfw_buf_puts(b, "\"/>");
        }
        for (size_t i = 0; i < se->n; i++) {
            if (!isfinite(se->x[i]) || !isfinite(se->y[i])) continue;
            if (se->style == HTML_SERIES_BARS) {
                double base = se->y0 ? se->y0[i] : 0.0;
                double x0 = html_map(&ax, se->x[i], px0, px1);
                double x1 = html_map(&ax, se->x[i] + c->bar_width, px0, px1);
                double ya = html_map(&ay, se->y[i], py0, py1);
                double yb = html_map(&ay, base, py0, py1);
                double top = fmin(ya, yb), h = fabs(yb - ya);
                double w = x1 - x0 > 1.5 ? x1 - x0 - 0.5 : x1 - x0;
                smfw_buf_printf(b,
                                "<rect class=\"pt\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                                "height=\"%.2f\" stroke=\"none\">",
                                x0, top, w > 0.2 ? w : 0.2, h);
                html_point_title(b, c, se, i);
                smfw_buf_puts(b, "</rect>");
            } else {
                double x = html_map(&ax, se->x[i], px0, px1);
                double y = html_map(&ay, se->y[i], py0, py1);
                smfw_buf_printf(b, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\">", x, y,
                                se->style == HTML_SERIES_LINE ? "2.2" : "2.8");
                html_point_title(b, c, se, i);
                smfw_buf_puts(b, "</circle>");
                if (se->labels && se->labels[i]) {
                    smfw_buf_printf(
                        b, "<text class=\"pt-label\" x=\"%.1f\" y=\"%.1f\" stroke=\"none\">", x + 6,
                        y - 6);
                    html_escape(b, se->labels[i]);
                    smfw_buf_puts(b, "</text>");
                }
            }
        }
        smfw_buf_puts(b, "</g>\n");
    }

    if (c->has_mark) {
        double x = html_map(&ax, c->mark_x, px0, px1), y = html_map(&ay, c->mark_y, py0, py1);
        smfw_buf_printf(b,
                        "<g class=\"mark\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" "
                        "stroke=\"#d62728\" stroke-width=\"2\"><title>",
                        x, y);
        html_escape(b, c->mark_label ? c->mark_label : "");
        smfw_buf_printf(b,
                        "</title></circle><text x=\"%.1f\" y=\"%.1f\" fill=\"#d62728\" "
                        "font-weight=\"bold\">",
                        x + 12, y + 18);
        html_escape(b, c->mark_label ? c->mark_label : "");
        smfw_buf_puts(b, "</text></g>\n");
    }

    /* Legend when there is more than one series. */
    if (c->n_series > 1) {
        double lx = px0 + 10, ly = py1 + 14;
        smfw_buf_puts(b, "<g class=\"legend\">");
        for (size_t s = 0; s < c->n_series; s++) {
            const char *color = c->series[s].color ? c->series[s].color : "#1f77b4";
            smfw_buf_printf(b,
                            "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                            "<text x=\"%.1f\" y=\"%.1f\">",
                            lx, ly - 9, color, lx + 14, ly);
            html_escape(b, c->series[s].name ? c->series[s].name : "");
            smfw_buf_puts(b, "</text>");
            lx += 28 + 7.0 * (double)strlen(c->series[s].name ? c->series[s].name : "");
        }
        smfw_buf_puts(b, "</g>\n");
    }
    smfw_buf_puts(b, "</svg>\n");
    if (c->note) {
        smfw_buf_puts(b, "<p class=\"note\">");
        html_escape(b, c->note);
        smfw_buf_puts(b, "</p>");
    }
    smfw_buf_puts(b, "</figure>\n");
}
