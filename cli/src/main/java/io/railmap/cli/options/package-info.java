/**
 * Options that several commands share, each a picocli mixin that a command declares with {@code @Mixin}
 * (for instance {@link io.railmap.cli.options.OutputFormat}, text or JSON).
 */
package io.railmap.cli.options;
