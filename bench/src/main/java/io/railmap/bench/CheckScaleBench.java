package io.railmap.bench;

import io.railmap.matrix.check.Checker;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.check.Readiness;
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

/**
 * The check and the readiness findings of a 2,000-rank matrix in name order over a scrambled ring
 * ({@link SyntheticCluster}): valid as neither mesh nor ring, so the check grades both modes' findings,
 * and nearly every pair of ranks shares no wire (1,996,200 of 1,999,000 pairs).
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class CheckScaleBench {
    @Param({"2000"})
    int ranks;

    private Topology topology;
    private List<String> names;
    private DeviceMatrix matrix;

    @Setup
    public void setUp() {
        topology = Topology.of(new SyntheticCluster(ranks, false).snapshot());
        names = topology.nodes();
        matrix = RailAligner.align(topology, names, RailOptions.DEFAULTS);
    }

    @Benchmark
    public List<Finding> check() {
        return Checker.check(topology, names, matrix.devices(), Mode.AUTO, MlxVersion.NEWEST);
    }

    @Benchmark
    public List<Finding> readiness() {
        return Readiness.of(topology, matrix);
    }
}
