/**
 * Build steps of the dist module, run by {@code ./mvnw package} (exec-maven-plugin, in the build's own
 * JVM) before the archives and the Debian package are put together; none of this ships. Each class is
 * one step with a {@code main}: {@link io.railmap.dist.ManPages} (railmap(1) and a page per subcommand,
 * railmapd(8)), {@link io.railmap.dist.Completions} (bash and zsh), {@link io.railmap.dist.RuntimeImage}
 * (the jlink runtime of the self-contained archive). docs/install.md says what each artifact holds.
 */
package io.railmap.dist;
