/**
 * The command-line pieces railmapd and railmap share, kept out of the discovery library (no picocli
 * there) and out of the daemon (the CLI carries no daemon classes): the discovery flags
 * ({@link io.railmap.options.DiscoveryOptions}, a picocli mixin that builds discovery's settings) and
 * the version line's Java ({@link io.railmap.options.JavaRuntime}).
 */
package io.railmap.options;
