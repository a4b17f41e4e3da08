/**
 * Rails on switched fabrics: which switch (or L2 segment) each compute NIC reaches, rails numbered
 * alike from the same records on every node, and the findings of a rail-optimised fabric's cabling
 * ({@code RailFindings}). Pure: records in, a
 * {@link io.railmap.matrix.fabric.RailTable} out.
 * Direct cables between nodes are not switched rails; their rails are the aligned cables of each
 * pair ({@code io.railmap.matrix.rail}).
 */
package io.railmap.matrix.fabric;
