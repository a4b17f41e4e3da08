/**
 * Build steps of the dist module, run by {@code ./mvnw package} (exec-maven-plugin, dist/pom.xml) before
 * the archives and the Debian package are put together; none of this ships. Each class is one step with a
 * {@code main}, writing into a fresh directory ({@link io.railmap.dist.Directories}):
 * {@link io.railmap.dist.ManPages} (railmap(1), a page per subcommand, railmapd(8); in a JVM of its own),
 * {@link io.railmap.dist.Completions} (bash and zsh) and {@link io.railmap.dist.RuntimeImage} (the jlink
 * runtime of the self-contained archive). docs/install.md says what each artifact holds.
 */
package io.railmap.dist;
