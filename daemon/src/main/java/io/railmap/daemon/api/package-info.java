/**
 * The HTTP API (Vert.x Web), the only package that imports vertx-web. Handlers parse the request,
 * ask the {@link io.railmap.daemon.engine.Engine} and the matrix core, and encode at the edge.
 */
package io.railmap.daemon.api;
