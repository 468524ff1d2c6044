#!/usr/bin/env bash
# test_container_image.sh - the Dockerfile's recipe tested without a Docker engine (CI runs it
# once; it takes minutes, so it is not a CTest test): build and install smfw as the build stage
# does (Release, prefix /usr, DESTDIR), install the runtime stage's package list
# (tools/container/runtime-packages.txt) into a folder with debootstrap from the Debian mirror
# apt uses, copy the install in, add the non-root user, and under chroot as that user:
# `smfw --version`, `smfw plugins`, and a run against smfw-mock (`--endpoint mock`). Then the
# list is checked against the binaries: every library they link (DT_NEEDED) resolves inside the
# root, comes from a listed package or from libc6, and every listed library package is needed.
# Needs root (debootstrap, chroot, mount) and the Debian mirror; 1.5 to 4 minutes on 2 cores
# (build 0.3-2 min, debootstrap 1-2 min). Usage: tools/test_container_image.sh [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
[ "$(id -u)" = 0 ] || { echo "test_container_image.sh: needs root (debootstrap, chroot)"; exit 1; }
for t in debootstrap chroot readelf cmake; do
    command -v "$t" >/dev/null || { echo "test_container_image.sh: $t is missing (apt-get install debootstrap binutils cmake)"; exit 1; }
done
keep=${1:+1}   # a WORKDIR given is kept for a look afterwards
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/smfw-image.XXXXXX")}
mkdir -p "$work"
root="$work/root"
t0=$(date +%s)
cleanup() {
    mountpoint -q "$root/proc" 2>/dev/null && umount "$root/proc"
    [ -n "$keep" ] || rm -rf "$work"
}
trap cleanup EXIT
step() { echo "[$(( $(date +%s) - t0 )) s] $*"; }

# The mirror apt uses here (deb822 or one-line sources).
mirror=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -1)
[ -n "$mirror" ] || mirror=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | head -1)
[ -n "$mirror" ] || { echo "test_container_image.sh: no Debian mirror in /etc/apt/sources.list*" >&2; exit 1; }
packages=$(grep -v '^#' tools/container/runtime-packages.txt | grep . | paste -sd, -)

step "build stage: Release, prefix /usr"
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DSMFW_BUILD_TESTS=OFF \
    -DCMAKE_INSTALL_PREFIX=/usr > "$work/cmake.log"
nice cmake --build "$work/build" -j"$(nproc)" > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
DESTDIR="$work/out" cmake --install "$work/build" > /dev/null

step "runtime stage: debootstrap bookworm (minbase) from $mirror with $packages"
debootstrap --variant=minbase --include="$packages" bookworm "$root" "$mirror" > "$work/debootstrap.log" 2>&1 \
    || { tail -30 "$work/debootstrap.log"; exit 1; }
cp -a "$work/out/." "$root/"
chroot "$root" useradd --uid 10001 --user-group --create-home --home-dir /home/smfw \
    --shell /usr/sbin/nologin smfw
mount -t proc proc "$root/proc"
as_user() { chroot --userspec=10001:10001 "$root" env HOME=/home/smfw PATH=/usr/bin:/bin "$@"; }

step "under chroot, as uid 10001"
as_user smfw --version
as_user smfw plugins > "$work/plugins.txt"
grep -q direct "$work/plugins.txt" || { cat "$work/plugins.txt"; exit 1; }
as_user sh -c 'cd /home/smfw && smfw run --endpoint mock --request-count 5 --concurrency 2 -q -o r1'
as_user test -s /home/smfw/r1/profile_export_aiperf.json
n=$(wc -l < "$root/home/smfw/r1/profile_export.jsonl")
[ "$n" = 5 ] || { echo "the mock run recorded $n requests, not 5"; exit 1; }
echo "mock run under chroot: 5 requests recorded"

step "package list against the binaries' libraries"
mapfile -t elves < <(find "$work/out" -type f -exec sh -c 'head -c4 "$1" | grep -q ELF' _ {} \; -print)
[ "${#elves[@]}" -ge 5 ] || { echo "expected smfw, libsmfw, plugins and smfw-mock, found ${elves[*]}"; exit 1; }
needed=$(for f in "${elves[@]}"; do readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; done | sort -u)
status=0
used=" libc6 "
for lib in $needed; do
    [ -n "$(find "$work/out" -name "$lib" -print -quit)" ] && continue   # libsmfw.so.N: ours
    path=$(chroot "$root" sh -c "ldconfig -p | awk -v l=$lib '\$1 == l {print \$NF; exit}'")
    if [ -z "$path" ]; then echo "  $lib: not found in the runtime root"; status=1; continue; fi
    pkg=$(chroot "$root" dpkg -S "$path" 2>/dev/null || chroot "$root" dpkg -S "/usr$path" 2>/dev/null || true)
    pkg=${pkg%%:*}
    case ",$packages,libc6," in
        *",$pkg,"*) case "$used" in *" $pkg "*) ;; *) used="$used$pkg " ;; esac ;;
        *) echo "  $lib ($path) comes from $pkg, which is not in tools/container/runtime-packages.txt"; status=1 ;;
    esac
done
for p in ${packages//,/ }; do
    [ "$p" = ca-certificates ] && continue   # data, not a library
    case "$used" in *" $p "*) ;; *) echo "  $p is listed but no binary links it"; status=1 ;; esac
done
for f in "${elves[@]}"; do
    rel=${f#"$work/out"}
    if chroot "$root" ldd "$rel" | grep -q 'not found'; then
        echo "  $rel: $(chroot "$root" ldd "$rel" | grep 'not found' | tr '\n' ' ')"; status=1
    fi
done
[ "$status" = 0 ] || { echo "test_container_image.sh: the package list does not match the binaries"; exit 1; }
echo "  ${#elves[@]} binaries; their $(echo "$needed" | wc -w) libraries come from: $used"
step "ok"
