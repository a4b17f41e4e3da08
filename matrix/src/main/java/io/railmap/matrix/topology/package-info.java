/**
 * The cable graph: a JGraphT undirected multigraph with nodes as vertices and one edge per
 * confirmed physical cable ({@link io.railmap.matrix.topology.Topology#of}). A cable is confirmed
 * when both ends observe each other; one-sided observations and shared segments are kept beside the
 * graph for reporting and never become edges.
 */
package io.railmap.matrix.topology;
