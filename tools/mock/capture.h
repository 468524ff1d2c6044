/*
 * capture.h - SageMaker Data Capture for the traffic smfw-mock serves: the
 * JSON-lines files a DataCaptureConfig makes SageMaker write to S3, written
 * to the mock's own S3 (docs/mock.md, "Data Capture").
 */
#ifndef SMFW_MOCK_CAPTURE_H
#define SMFW_MOCK_CAPTURE_H

#include "mock.h"

/* A DataCaptureConfig given as flags (--data-capture, --capture-*). */
typedef struct mock_capture_config mock_capture_config;
typedef struct mock_capture mock_capture;

/*
 * Apply one capture flag (name without dashes' prefix, e.g. "capture-mode") to *cfg (made on
 * first use). Returns 1 when `name` is no capture flag, 0 when applied, -1 with err filled.
 */
int mock_capture_option(mock_capture_config **cfg, const char *name, const char *value, char *err,
                        size_t err_size);
/* Whether the configuration is complete (--capture-* without --data-capture is refused). */
int mock_capture_config_check(const mock_capture_config *cfg, char *err, size_t err_size);
void mock_capture_config_free(mock_capture_config *cfg);

/* The writer: buffers lines per endpoint and variant, writes a new S3 object at most every
 * --capture-flush-ms and when the hour changes, and the rest when freed. NULL: capture off. */
mock_capture *mock_capture_new(mock_server *srv);
void mock_capture_free(mock_capture *c);

/*
 * One answered invocation. `output` NULL: nothing to capture on the way out (streamed answers,
 * as SageMaker). recv_unix: when the request arrived (inferenceTime, whole seconds).
 */
void mock_capture_record(mock_capture *c, const mock_request *req, const char *endpoint,
                         const char *variant, double recv_unix, const void *output,
                         size_t output_len, const char *output_type);

#endif /* SMFW_MOCK_CAPTURE_H */
