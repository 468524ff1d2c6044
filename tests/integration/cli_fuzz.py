"""cli_fuzz.py - random argument vectors and random INI files against `smfw config`
(which parses every flag and validates every value without sending anything).

Every case must end within its time limit, by exit 0 or 1 (never a signal, a
sanitizer report or another code), and every refusal must name where the bad
input came from: one of the flags given, the file and line, or the variable.
Seeded: a failure prints the case, and the same seed replays it.
"""
import os
import random
import re
import subprocess
import sys
import tempfile
import time

smfw, seed, budget_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
rng = random.Random(seed)
work = tempfile.mkdtemp(prefix="smfw-fuzz.")
env = dict(os.environ)
for k in list(env):
    if k.startswith("SMFW_") and k not in ("SMFW_PLUGIN_PATH", "SMFW_DATA_DIR"):
        del env[k]
env.update(HOME=work, AWS_EC2_METADATA_DISABLED="true", AWS_CONFIG_FILE="/dev/null",
           AWS_SHARED_CREDENTIALS_FILE="/dev/null")

help_text = subprocess.run([smfw, "run", "--help"], capture_output=True, text=True,
                           env=env).stdout
flags = sorted(set(re.findall(r"--(?:\[no-\])?([a-z][a-z0-9-]+)", help_text)))
shorts = sorted(set(re.findall(r"^\s+-([A-Za-z]),", help_text, re.M)))
long_of = dict(re.findall(r"^\s+-([A-Za-z]), --([a-z][a-z0-9-]+)", help_text, re.M))
values = ["", "0", "-1", "1", "2", "5", "1e12", "1e6", "0.5", "nan", "inf", "-inf", "five",
          "10s", "0s", "-5s", "1h", "abc:def", "http://[::1", "http://127.0.0.1:99999",
          "http://u:p@h:1/?k=v", "ftp://x", "X: y", "Authorization Bearer x", "1,2,4", "1,,x",
          ",", "auto", "none", "weird", "poisson", "chat", "\u00e9\u00e8", "a" * 5000, "--",
          "-", "=", "true", "false", "9" * 40, "0x10", " 3 ", "3 # c", "1/2", "3/2"]


def rand_value():
    if rng.random() < 0.1:
        return "".join(chr(rng.randrange(1, 0x250)) for _ in range(rng.randrange(1, 30)))
    return rng.choice(values)


def rand_argv():
    argv = []
    for _ in range(rng.randrange(0, 7)):
        r = rng.random()
        if r < 0.55 and flags:
            f = rng.choice(flags)
            if rng.random() < 0.3:
                argv.append("--%s=%s" % (f, rand_value()))
            else:
                argv += ["--" + f, rand_value()]
        elif r < 0.7 and shorts:
            argv += ["-" + rng.choice(shorts), rand_value()]
        elif r < 0.8:
            argv.append("--" + rng.choice(flags + ["nosuch", "concurency", "x"])[:-1])
        elif r < 0.9:
            argv.append(rng.choice(["-", "--", "-vv", "-qv", "-Z", "---x", "--=", rand_value()]))
        else:
            argv.append("--no-" + rng.choice(flags))
    return argv


sections = ["smfw", "run", "aws", "dataset", "backend.direct", "reporter.csv", "nosuch", "run",
            "run"]
keys = ["concurrency", "request_count", "request_rate", "max_error_rate", "duration", "url",
        "header", "progress", "region", "streaming", "nosuch", "endpoint_type", "workers",
        "request_timeout", "shard", "goodput"]


def rand_ini():
    lines = []
    for _ in range(rng.randrange(1, 12)):
        r = rng.random()
        if r < 0.2:
            s = rng.choice(sections)
            lines.append(rng.choice(["[%s]" % s, "[%s" % s, "%s]" % s, "[ %s ]" % s, "[]"]))
        elif r < 0.75:
            lines.append("%s%s%s" % (rng.choice(keys), rng.choice([" = ", "=", " : ", " "]),
                                     rand_value()))
        elif r < 0.85:
            lines.append(rng.choice(["# c", "; c", "", "   ", "=x", "\t[run]"]))
        else:
            lines.append("".join(chr(rng.randrange(1, 0x7f)) for _ in range(rng.randrange(0, 300))))
    return "\n".join(lines) + rng.choice(["\n", ""])


def names_source(msg, argv, path):
    """The refusal names a flag given, the file (and its line), a variable, or the argument."""
    if path and (re.search(re.escape(path) + r":\d+:", msg) or "config file " + path in msg):
        return True
    if "environment variable" in msg:
        return True
    for i, a in enumerate(argv):
        given = argv[i + 1] if a in ("-C", "--config") and i + 1 < len(argv) else \
            a[len("--config="):] if a.startswith("--config=") else None
        if given is not None and "config file " + given[:200] in msg:
            return True
    for a in argv:
        if a.startswith("-") and len(a) > 1:
            name = a.split("=", 1)[0]
            if name in msg:
                return True
            if len(name) == 2 and name[1] in long_of and "--" + long_of[name[1]] in msg:
                return True  # -H is named as --header
            if not name.startswith("--") and len(name) > 2 and ("-" + name[-1]) in msg:
                return True  # a bundle "-vZ" names its letter
        elif '"%s"' % a[:60] in msg or "argument" in msg:
            return True
    return False


failures = 0
cases = 0
t_end = time.monotonic() + budget_s
while time.monotonic() < t_end:
    path = None
    if rng.random() < 0.5:
        argv = rand_argv()
    else:
        path = os.path.join(work, "f%d.conf" % cases)
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(rand_ini())
        argv = ["-C", path] + (rand_argv() if rng.random() < 0.3 else [])
    cases += 1
    try:
        p = subprocess.run([smfw, "config"] + argv, capture_output=True, env=env, timeout=20)
    except subprocess.TimeoutExpired:
        print("HANG: smfw config %r" % argv)
        failures += 1
        continue
    err = p.stderr.decode("utf-8", "replace")
    bad = None
    if p.returncode not in (0, 1):
        bad = "exit %d" % p.returncode
    elif "Sanitizer" in err or "runtime error" in err:
        bad = "sanitizer report"
    elif p.returncode == 1 and not names_source(err, argv, path):
        bad = "the refusal names no flag, file:line or variable"
    if bad:
        failures += 1
        print("FAIL (%s): smfw config %s\n%s" % (bad, repr(argv)[:3000], err[-2000:]))
        if path:
            print("--- %s\n%s" % (path, open(path, encoding="utf-8", errors="replace").read()[:2000]))
        if failures >= 5:
            break
print("%d cases (seed %d), %d failures" % (cases, seed, failures))
sys.exit(1 if failures else 0)
