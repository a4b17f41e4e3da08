package io.railmap.bench;

import io.railmap.matrix.check.Checker;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.rail.DeviceMatrix;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;

import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Building the rail-aligned matrix for 64 ranks and checking it, on a full mesh with two cables per pair. */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MatrixCheckBench {
    @Param({"64"})
    int ranks;

    private Topology topology;
    private List<String> names;

    @Setup
    public void setUp() {
        topology = Shapes.fullMesh(ranks, 2);
        names = Shapes.nodes(ranks);
    }

    @Benchmark
    public List<Finding> matrixPlusCheck() {
        DeviceMatrix m = RailAligner.align(topology, names, RailOptions.DEFAULTS);
        return Checker.check(topology, names, m.devices(), Mode.AUTO, MlxVersion.NEWEST);
    }
}
