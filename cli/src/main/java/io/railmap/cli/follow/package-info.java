/**
 * Configs that follow the cables: {@code railmap matrix --watch} and {@code railmap env --watch}
 * rewrite their file whenever a change the daemon streams ({@code GET /v1/events}) changes it.
 */
package io.railmap.cli.follow;
