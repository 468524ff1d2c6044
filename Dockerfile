# smfw's container image: Debian 12 slim, the program, its plugins and smfw-mock, run as a
# non-root user with `smfw` as entrypoint. Build: docker build -t smfw:0.1.0 . (docs/scaling.md)
# The runtime stage installs exactly tools/container/runtime-packages.txt, which
# tools/test_container_image.sh checks against the binaries' libraries (without Docker).

FROM debian:12-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential cmake pkg-config \
      libcurl4-openssl-dev libssl-dev libjansson-dev libltdl-dev libarchive-dev libinih-dev \
      libevent-dev libpcre2-dev libutf8proc-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B /tmp/build -DCMAKE_BUILD_TYPE=Release -DSMFW_BUILD_TESTS=OFF \
      -DCMAKE_INSTALL_PREFIX=/usr \
 && cmake --build /tmp/build -j"$(nproc)" \
 && DESTDIR=/out cmake --install /tmp/build

FROM debian:12-slim
COPY tools/container/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
 && grep -v '^#' /tmp/runtime-packages.txt | xargs apt-get install -y --no-install-recommends \
 && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt \
 && useradd --uid 10001 --user-group --create-home --home-dir /home/smfw \
      --shell /usr/sbin/nologin smfw
COPY --from=build /out/ /
USER 10001:10001
WORKDIR /home/smfw
ENTRYPOINT ["smfw"]
CMD ["--help"]
