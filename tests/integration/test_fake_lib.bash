# test_fake_lib.bash - the prelude of a test against a local fake AWS server (imds_fake.py,
# sso_fake.py): `source "$here/test_fake_lib.bash" NAME` makes a work folder and enters it
# (removed on exit unless KEEP is set), stops the fake whose pid the test puts in fake_pid,
# defines fail(), and leaves nothing of the caller's AWS or proxy setup in the environment
# (the test then sets its own AWS_* variables).
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-$1.XXXXXX")
cd "$work"
fake_pid=
cleanup() {
    if [ -n "$fake_pid" ]; then
        kill "$fake_pid" 2>/dev/null || true
        wait "$fake_pid" 2>/dev/null || true
    fi
    cd /
    if [ -n "${KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# fail MESSAGE FILES... : print the message and the files, exit 1.
fail() {
    local msg=$1
    shift
    echo "FAIL: $msg"
    for f in "$@"; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
    exit 1
}

for v in $(env | sed -n 's/^\(AWS_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
unset HTTPS_PROXY https_proxy HTTP_PROXY http_proxy NO_PROXY no_proxy
