/**
 * The picture of a topology: nodes, cables with both port names, rails coloured by index
 * ({@link io.railmap.matrix.draw.RailColours}), switches and segments, unconfirmed cables dashed and
 * findings marked on what they concern: laid out by {@code TopologyLayout} (on a circle with JGraphT's
 * drawing algorithms, or as a rail diagram, {@code RailLayout}, when the rail table has switches) and
 * written as SVG by the JDK's StAX writer ({@link io.railmap.matrix.draw.TopologySvg}).
 * {@code railmap draw} saves it and the daemon's page shows it, so both show the same picture.
 */
package io.railmap.matrix.draw;
