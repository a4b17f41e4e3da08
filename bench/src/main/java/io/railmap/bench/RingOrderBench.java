package io.railmap.bench;

import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ring order (exact bottleneck search) for 8, 12 and 16 nodes: a full mesh with two cables per pair,
 * and a scrambled ring with two cables per edge plus chords. mlx.distributed_config enumerates every
 * simple cycle (0.24 s at 8 nodes, 348 s at 11 on a full mesh).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RingOrderBench {
    @Param({"8", "12", "16"})
    int nodes;

    @Param({"full-mesh-2", "ring-with-chords"})
    String shape;

    private Topology topology;
    private List<String> names;

    @Setup
    public void setUp() {
        topology = shape.equals("full-mesh-2") ? Shapes.fullMesh(nodes, 2) : Shapes.ringWithChords(nodes);
        names = Shapes.nodes(nodes);
    }

    @Benchmark
    public List<String> ringOrder() {
        return Planner.ringOrder(topology, names, RailOptions.DEFAULTS);
    }
}
