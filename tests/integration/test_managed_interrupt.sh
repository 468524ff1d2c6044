#!/usr/bin/env bash
# test_managed_interrupt.sh - Ctrl-C (SIGINT) while smfw polls a managed job
# that smfw-mock keeps InProgress for a few seconds.
#  1. --on-interrupt stop: StopAIBenchmarkJob, smfw waits for Stopped and
#     reports what the job wrote; exit 130.
#  2. --on-interrupt detach: the job keeps running, smfw prints how to come
#     back (`smfw results --job NAME`), exit 130; once the job Completed,
#     that command downloads the bundle and prints its numbers (exit 0).
#  3. The default (ask) when stdin is not a terminal (a script, CI): no
#     question, a line saying so, detach; exit 130, the job keeps running.
#  4. ask on a terminal (a pseudo-terminal here): the question is asked and
#     "s" stops the job; exit 130.
#  5. A second Ctrl-C while the job stops: smfw does not wait; exit 130.
#  6. --timeout: the job is stopped at the timeout; exit 2.
#  7. --no-wait: launch, print how to come back, exit 0 at once.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_managed_lib.bash"

start_mock --job-duration-s 3

aws_py '
import os, pty, re, signal, subprocess, time
SMFW = os.environ["SMFW_BUILD_DIR"] + "/smfw"
ROLE = "'"$ROLE"'"

def start(name, *args, tty=False, env=None):
    cmd = [SMFW, "--backend", "managed", "--endpoint", "mock-endpoint", "--poll-interval", "0.1s",
           "--role-arn", ROLE, "--request-count", "8", "--concurrency", "2", "--run", "-o", name, *args]
    if tty:
        master, slave = pty.openpty()
        p = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        return p, master
    out, err = open(name + ".out", "w"), open(name + ".err", "w")
    return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env), None

def read_tty(master, until, limit=30):
    buf, t0 = b"", time.time()
    while until.encode() not in buf:
        text = buf.decode(errors="replace")
        assert time.time() - t0 < limit, f"no {until!r} on the terminal:\n{text}"
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        buf += chunk
    return buf.decode(errors="replace")

def wait_launched(name, limit=30):
    t0 = time.time()
    while True:
        err = open(name + ".err").read()
        m = re.search(r"launched benchmark job (\S+)", err)
        if m and "polling" in err:
            return m.group(1)
        assert time.time() - t0 < limit, f"{name}: not launched:\n{err}"
        time.sleep(0.05)

def finish(p, name, want, limit=60):
    rc = p.wait(timeout=limit)
    out = open(name + ".out").read() if os.path.exists(name + ".out") else ""
    err = open(name + ".err").read() if os.path.exists(name + ".err") else ""
    assert rc == want, f"{name}: exit {rc}, want {want}\n{out}\n{err}"
    return out, err

def status(job):
    return sm.describe_ai_benchmark_job(AIBenchmarkJobName=job)["AIBenchmarkJobStatus"]

def wait_status(job, want, limit=30):
    t0 = time.time()
    while (s := status(job)) != want:
        assert time.time() - t0 < limit, f"{job}: {s}, want {want}"
        time.sleep(0.1)

# 1. stop
p, _ = start("stop", "--on-interrupt", "stop")
job = wait_launched("stop")
p.send_signal(signal.SIGINT)
out, err = finish(p, "stop", 130)
assert f"interrupted: stopping benchmark job {job} (--on-interrupt stop)" in err, err
assert status(job) == "Stopped", status(job)
assert f"benchmark job {job} was stopped (Stopped)" in err, err
print("1. --on-interrupt stop: job Stopped, exit 130")

# 3. ask without a terminal: detach, said so
p, _ = start("ask")
job_ask = wait_launched("ask")
p.send_signal(signal.SIGINT)
out, err = finish(p, "ask", 130)
assert "not on a terminal, so not asking: detaching from benchmark job " + job_ask in err, err
assert status(job_ask) == "InProgress", status(job_ask)
assert f"smfw results --job {job_ask}" in out, out
print("3. ask without a terminal: detached, job InProgress, exit 130")

# 4. ask on a terminal: "s" stops
p, tty = start("pty", tty=True)
screen = read_tty(tty, "launched benchmark job")
time.sleep(0.3)
p.send_signal(signal.SIGINT)
screen += read_tty(tty, "or detach and leave it running (d)? [d] ")
job_pty = re.search(r"launched benchmark job (\S+)", screen).group(1)
os.write(tty, b"s\n")
rc = p.wait(timeout=60)
os.close(tty)
assert rc == 130, (rc, screen)
wait_status(job_pty, "Stopped")
print("4. ask on a terminal: asked, s stopped the job, exit 130")

# 5. a second Ctrl-C while stopping: no waiting (the mock stops at once, so catch it early)
p, _ = start("twice", "--on-interrupt", "stop")
job_twice = wait_launched("twice")
p.send_signal(signal.SIGINT)
t0 = time.time()
while "stopping benchmark job" not in open("twice.err").read() and time.time() - t0 < 30:
    time.sleep(0.01)
p.send_signal(signal.SIGINT)
out, err = finish(p, "twice", 130)
assert f"interrupted: stopping benchmark job {job_twice}" in err, err
# Either the second Ctrl-C came while the job was stopping, or the job had already stopped.
assert (f"not waiting for benchmark job {job_twice} to stop" in err
        or f"{job_twice} was stopped (Stopped)" in err), err
wait_status(job_twice, "Stopped")
print("5. a second Ctrl-C: exit 130 without hanging")

# 6. --timeout stops the job
p, _ = start("timeout", "--timeout", "1s")
out, err = finish(p, "timeout", 2)
job_to = re.search(r"launched benchmark job (\S+)", err).group(1)
assert "timeout of 1 s reached" in err and f"{job_to} was stopped at the timeout" in err, err
assert status(job_to) == "Stopped"
print("6. --timeout: job stopped, exit 2")

# 7. --no-wait
t0 = time.time()
p, _ = start("nowait", "--no-wait")
out, err = finish(p, "nowait", 0)
job_nw = re.search(r"launched benchmark job (\S+)", err).group(1)
assert f"smfw results --job {job_nw}" in out and status(job_nw) == "InProgress", (out, status(job_nw))
print("7. --no-wait: launched and detached, exit 0")

# 2. detach, then come back when the job is done. The run takes its region and keys from a
# profile and its endpoint from --endpoint-url, nothing from the environment: the hint
# carries the --region, --endpoint-url and --profile it used, and works as printed from a
# shell that has only the config file.
url = os.environ["AWS_ENDPOINT_URL"]
with open("hint-config", "w") as f:
    f.write("[profile hint]\nregion = us-east-1\naws_access_key_id = '"$MOCK_KEY"'\n"
            "aws_secret_access_key = '"$MOCK_SECRET"'\n")
bare = {k: v for k, v in os.environ.items()
        if k not in ("AWS_ENDPOINT_URL", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID",
                     "AWS_SECRET_ACCESS_KEY")}
bare["AWS_CONFIG_FILE"] = os.path.abspath("hint-config")
p, _ = start("detach", "--on-interrupt", "detach", "--profile", "hint", "--endpoint-url", url, env=bare)
job_d = wait_launched("detach")
p.send_signal(signal.SIGINT)
out, err = finish(p, "detach", 130)
m = re.search(r"Detached; benchmark job (\S+) keeps running. Come back with:\n  (smfw results .*)\n", out)
assert m and m.group(1) == job_d, out
hint = m.group(2).split()
for flag, want in (("--job", job_d), ("--region", "us-east-1"), ("--endpoint-url", url), ("--profile", "hint")):
    assert flag in hint and hint[hint.index(flag) + 1] == want, (flag, want, m.group(2))
assert status(job_d) == "InProgress"
wait_status(job_d, "Completed")
r = subprocess.run([SMFW] + hint[1:] + ["-o", "back"], capture_output=True, text=True, timeout=60, env=bare)
assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
open("back.out", "w").write(r.stdout)
assert f"Job {job_d}: Completed" in r.stdout, r.stdout
for j in (job_ask, job_nw):
    if status(j) == "InProgress":
        sm.stop_ai_benchmark_job(AIBenchmarkJobName=j)
print("2. --on-interrupt detach: exit 130, job Completed, smfw results --job fetched it")
'
check_numbers back back/bundle/output/profile_export_aiperf.json
echo "managed interrupts against smfw-mock: all checks passed"
