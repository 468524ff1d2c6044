/*
 * aws_commands.c - the command plugin aws: the program's commands that talk to
 * AWS services on their own (not as a benchmark backend): cloudwatch,
 * publish, autoscaling, doctor, batch-submit, jobs, recommend and endpoint-cost.
 */
#include <smfw/log.h>
#include <smfw/plugin.h>

#include "aws_commands.h"

int aws_command_fail(const smfw_error *err) {
    smfw_log(SMFW_LOG_ERROR, NULL, "%s", err->message);
    return smfw_status_exit_code(err->status);
}

static const smfw_command_def *const aws_commands[] = {
    &aws_command_cloudwatch, &aws_command_publish,       &aws_command_autoscaling,
    &aws_command_doctor,     &aws_command_batch_submit,  &aws_command_jobs,
    &aws_command_recommend,  &aws_command_endpoint_cost, NULL};

static const smfw_command_ops aws_ops = {sizeof(smfw_command_ops), aws_commands};

SMFW_PLUGIN_DEFINE(
    smfw_command_aws, SMFW_PLUGIN_COMMAND, "aws", "1.0.0",
    "AWS tools: cloudwatch, publish, autoscaling, doctor, batch-submit, jobs, recommend, "
    "endpoint-cost",
    NULL, &aws_ops)
