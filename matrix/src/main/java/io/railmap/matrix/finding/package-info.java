/**
 * The vocabulary every stage reports in: a {@link io.railmap.matrix.finding.Finding} (what, how bad,
 * where, a sentence), its {@link io.railmap.matrix.finding.Code} and
 * {@link io.railmap.matrix.finding.Severity}. Below the stages, so that each of them can raise
 * findings without importing another.
 *
 * <p>A new finding code: its constant in {@link io.railmap.matrix.finding.Code} (the wire name
 * derives from it), the stage that raises it, and its line in {@code docs/} ({@code CodeTest} fails
 * until a page names it).
 */
package io.railmap.matrix.finding;
