/**
 * The vocabulary every stage reports in: a {@link io.railmap.matrix.finding.Finding} (what, how bad,
 * where, a sentence), its {@link io.railmap.matrix.finding.Code} and
 * {@link io.railmap.matrix.finding.Severity}. Below the stages, so that each of them can raise
 * findings without importing another.
 */
package io.railmap.matrix.finding;
