# Build stage: the Swift toolchain image compiles a release binary.
FROM swift:6.3-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libsqlite3-dev zlib1g-dev libssl-dev libpq-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product understudy --static-swift-stdlib \
    && cp "$(swift build -c release --show-bin-path)/understudy" /usr/local/bin/understudy

# Runtime stage: only the binary, its migrations and config, and the four runtime libraries.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libsqlite3-0 zlib1g libssl3 libpq5 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /var/lib/understudy understudy \
    && mkdir -p /var/lib/understudy && chown understudy /var/lib/understudy
COPY --from=build /usr/local/bin/understudy /usr/local/bin/understudy
COPY Migrations /opt/understudy/Migrations
COPY Config /opt/understudy/Config
WORKDIR /opt/understudy
USER understudy
# Listening off loopback requires an admin token: pass UNDERSTUDY_ADMIN_TOKEN at run time.
ENV UNDERSTUDY_HOST=0.0.0.0 \
    UNDERSTUDY_PORT=8080 \
    UNDERSTUDY_DATABASE=/var/lib/understudy/understudy.sqlite \
    UNDERSTUDY_MIGRATIONS=/opt/understudy/Migrations \
    UNDERSTUDY_FIXTURES=/opt/understudy/Config/fixtures \
    UNDERSTUDY_CONFIG=/opt/understudy/Config/understudy.json \
    UNDERSTUDY_CA_DIR=/var/lib/understudy
# The CA lives beside the database on the volume (not in the user's data folder, which a new
# container would not have), so devices keep trusting it across restarts.
EXPOSE 8080 8443 8888
VOLUME ["/var/lib/understudy"]
HEALTHCHECK --interval=5s --timeout=3s --retries=10 CMD ["understudy", "healthcheck"]
ENTRYPOINT ["understudy"]
CMD ["serve"]
