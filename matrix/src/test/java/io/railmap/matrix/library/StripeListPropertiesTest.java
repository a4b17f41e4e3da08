package io.railmap.matrix.library;

import static io.railmap.matrix.library.ModelExpressLibraryTest.mxPin;
import static io.railmap.matrix.library.UcxLibraryTest.env;
import static io.railmap.matrix.library.UcxLibraryTest.ucxAllowList;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.model.PortState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Over seeded random nodes (1 to 8 NICs at mixed rates, some unknown, some down, on port 1 or 2, a
 * management NIC often as fast as the rest, a random --min-rate-gbps): the lists UCX, NIXL,
 * ModelExpress and NVSHMEM are given hold every compute NIC, and no slower, down or management NIC.
 * Each failure names its seed; rerun one case by setting {@code BASE_SEED} to it and {@code RUNS} to 1.
 */
class StripeListPropertiesTest {
    private static final long BASE_SEED = 0x5771_2026L;
    private static final int RUNS = 400;
    private static final List<Optional<Double>> RATES = List.of(Optional.of(400.0), Optional.of(400.0), Optional.of(200.0),
            Optional.of(100.0), Optional.of(25.0), Optional.empty());

    @Test
    void everyListHoldsExactlyTheComputeNics() {
        for (int run = 0; run < RUNS; run++) {
            long seed = BASE_SEED + run;
            Random random = new Random(seed);
            StripeNode node = StripeNode.named("g" + run);
            int count = 1 + random.nextInt(8);
            List<String> hcaPorts = new ArrayList<>();
            List<Optional<Double>> rates = new ArrayList<>();
            List<Boolean> active = new ArrayList<>();
            for (int k = 0; k < count; k++) {
                int port = random.nextInt(4) == 0 ? 2 : 1;
                Optional<Double> rate = RATES.get(random.nextInt(RATES.size()));
                boolean up = random.nextInt(6) != 0;
                node.nic("mlx5_" + k, port, rate, up ? PortState.ACTIVE : PortState.DOWN);
                hcaPorts.add("mlx5_" + k + ":" + port);
                rates.add(rate);
                active.add(up);
            }
            boolean management = random.nextInt(10) < 7;
            if (management) {
                node.management("mlx5_99", random.nextBoolean() ? 400 : 25);
            }
            Optional<Double> minRate = random.nextInt(3) == 0 ? RATES.get(random.nextInt(RATES.size())) : Optional.empty();

            // the rule, restated: active, not management, at or above --min-rate-gbps else the fastest known rate
            Optional<Double> floor = minRate.or(() -> IntStream.range(0, count).filter(active::get)
                    .mapToObj(rates::get).flatMap(Optional::stream).max(Double::compare));
            Set<String> compute = new TreeSet<>();
            for (int k = 0; k < count; k++) {
                int nic = k;
                if (active.get(k) && floor.map(f -> rates.get(nic).map(r -> r >= f).orElse(false)).orElse(true)) {
                    compute.add(hcaPorts.get(k));
                }
            }

            String because = "seed " + seed + ": " + hcaPorts + " at " + rates + ", active " + active + ", --min-rate-gbps " + minRate
                    + (management ? ", management mlx5_99:1" : "");
            for (boolean stripe : List.of(false, true)) {
                NodeNics nics = node.nics(new SettingsOptions(minRate, stripe));
                Map<String, String> ucx = env(new UcxLibrary().settings(nics));
                Map<String, String> nixl = env(new NixlLibrary().settings(nics));
                Map<String, String> mx = env(new ModelExpressLibrary().settings(nics));
                Map<String, String> nvshmem = env(new NvshmemLibrary().settings(nics));
                if (compute.isEmpty()) {
                    assertThat(List.of(ucx, nixl, mx, nvshmem)).as(because).allSatisfy(e -> assertThat(e).isEmpty());
                    continue;
                }
                for (Map<String, String> env : List.of(ucx, nixl, mx)) {
                    assertThat(new TreeSet<>(ucxAllowList(env.get("UCX_NET_DEVICES")))).as(because).isEqualTo(compute);
                }
                assertThat(ucx.get("UCX_MAX_RMA_RAILS")).as(because).isEqualTo(Integer.toString(compute.size()));
                assertThat(new TreeSet<>(NvshmemLibraryTest.parseHcaList(nvshmem.get("NVSHMEM_HCA_LIST"), NvshmemLibrary.MAX_HCAS)
                        .stream().map(h -> h.name() + ":" + h.port()).toList())).as(because).isEqualTo(compute);
                if (!stripe) {
                    String pin = mx.get("MX_RDMA_NIC_PIN");
                    assertThat(new TreeSet<>(IntStream.range(0, compute.size()).mapToObj(d -> mxPin(pin, d)).toList()))
                            .as(because).isEqualTo(compute);
                    assertThat(mxPin(pin, compute.size())).as(because).isNull();
                }
            }
        }
    }
}
