/**
 * The HTTP API (Vert.x Web), the only package that imports vertx-web. {@link io.railmap.daemon.api.ApiVerticle}
 * declares the routes; handlers parse the request, ask the {@link io.railmap.daemon.engine.Engine} and
 * the matrix core, and encode at the edge. What a client can hold is bounded
 * ({@link io.railmap.daemon.api.HttpLimits}, enforced by Vert.x's options and
 * {@link io.railmap.daemon.api.ConnectionGuard}); every error answer is JSON
 * ({@link io.railmap.daemon.api.ErrorReplies}); metric labels are bounded
 * ({@link io.railmap.daemon.api.MeterLimits}); {@code /healthz} reports what
 * {@link io.railmap.daemon.api.HealthWatch} finds stuck; {@link io.railmap.daemon.api.ApiSocket} makes
 * the Unix socket's path ready without removing anything but a stale socket. The JSON answers are
 * records ({@link io.railmap.daemon.api.Replies}), and {@link io.railmap.daemon.api.ApiDocument} describes
 * the routes, their declared parameters ({@link io.railmap.daemon.api.QueryParams.Param}) and those records
 * as the OpenAPI document served at {@code /v1/openapi.json}.
 */
package io.railmap.daemon.api;
