/* aws_commands.h - the commands of the command plugin aws, one file each. */
#ifndef SMFW_COMMAND_AWS_COMMANDS_H
#define SMFW_COMMAND_AWS_COMMANDS_H

#include <smfw/command.h>

/** Log err's sentence as the command's error and return the exit code its status means. */
int aws_command_fail(const smfw_error *err);

/** `smfw cloudwatch` (cmd_cloudwatch.c). */
extern const smfw_command_def aws_command_cloudwatch;
/** `smfw batch-submit` (cmd_batch_submit.c). */
extern const smfw_command_def aws_command_batch_submit;

/** `smfw publish` (cmd_publish.c). */
extern const smfw_command_def aws_command_publish;
/** `smfw autoscaling` (cmd_autoscaling.c). */
extern const smfw_command_def aws_command_autoscaling;
/** `smfw jobs` (cmd_jobs.c). */
extern const smfw_command_def aws_command_jobs;
/** `smfw recommend` (cmd_recommend.c). */
extern const smfw_command_def aws_command_recommend;
/** `smfw endpoint-cost` (cmd_endpoint_cost.c). */
extern const smfw_command_def aws_command_endpoint_cost;
/** `smfw doctor` (cmd_doctor.c). */
extern const smfw_command_def aws_command_doctor;

#endif
