# The builder image is expected to contain
# /fbc (fbc's image, from its Containerfile)
FROM fbc:latest as builder

# Copy FBC root into image at /configs and pre-populate serve cache
ADD catalog /configs
RUN ["/fbc", "serve", "/configs", "--cache-dir=/tmp/cache", "--cache-only"]

FROM fbc:latest
# The base image is expected to contain
# /fbc (fbc's image, from its Containerfile)

# Configure the entrypoint and command
ENTRYPOINT ["/fbc"]
CMD ["serve", "/configs", "--cache-dir=/tmp/cache"]

COPY --from=builder /configs /configs
COPY --from=builder /tmp/cache /tmp/cache

# Set FBC-specific label for the location of the FBC root directory
# in the image
LABEL operators.operatorframework.io.index.configs.v1=/configs
