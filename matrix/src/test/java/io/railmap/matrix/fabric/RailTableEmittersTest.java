package io.railmap.matrix.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.matrix.emit.Dot;
import io.railmap.matrix.emit.PlanJson;
import io.railmap.matrix.emit.RailTableJson;
import io.railmap.matrix.emit.RailTableText;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rail table as text, JSON, in a plan's JSON and in DOT. */
class RailTableEmittersTest {
    private final Fabric swapped = Fabric.railOptimised(4, 2).move("g1:eth0", "leaf1").move("g1:eth1", "leaf0");

    @Test
    void textHasOneRowPerRailWithEveryNodesNicAndRate() {
        String text = RailTableText.render(Fabric.railOptimised(3, 2).table());

        assertThat(text.lines().toList()).containsExactly(
                "RAIL  KIND    NAME   HCA     NICS",
                "0     switch  leaf0  mlx5_0  g1 mlx5_0 400 Gb/s, g2 mlx5_0 400 Gb/s, g3 mlx5_0 400 Gb/s",
                "1     switch  leaf1  mlx5_1  g1 mlx5_1 400 Gb/s, g2 mlx5_1 400 Gb/s, g3 mlx5_1 400 Gb/s");
    }

    @Test
    void textSaysWhenThereAreNoSwitchedRails() {
        assertThat(RailTableText.render(new Fabric().table())).startsWith("no switched rails");
    }

    @Test
    void jsonCarriesRailsNicsAndFindings() throws Exception {
        JsonNode json = new ObjectMapper().readTree(RailTableJson.render(swapped.table()));

        assertThat(json.get("rails")).hasSize(2);
        JsonNode rail0 = json.get("rails").get(0);
        assertThat(rail0.get("rail").asInt()).isZero();
        assertThat(rail0.get("kind").asText()).isEqualTo("switch");
        assertThat(rail0.get("identity").asText()).isEqualTo("lldp:52:54:00:00:00:00");
        assertThat(rail0.get("name").asText()).isEqualTo("leaf0");
        assertThat(rail0.get("nics").get(0).get("node").asText()).isEqualTo("g1");
        assertThat(rail0.get("nics").get(0).get("port").asText()).isEqualTo("eth1");
        assertThat(rail0.get("nics").get(0).get("switchPort").asText()).isEqualTo("p5");
        assertThat(rail0.get("nics").get(0).get("placedBy").asText()).isEqualTo("lldp");
        assertThat(json.get("findings")).hasSize(2);
        assertThat(json.get("findings").get(0).get("code").asText()).isEqualTo("cross-rail");
        assertThat(json.get("findings").get(0).get("ranks")).isEmpty();
    }

    @Test
    void aPlansJsonCarriesTheRailTableOfEveryNodeButNotItsFindingsAmongThePlans() throws Exception {
        Topology topology = Topology.of(new Snapshot(swapped.records()));
        Plan plan = Planner.plan(topology, List.of("g2", "g3"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);

        JsonNode json = new ObjectMapper().readTree(PlanJson.render(plan));

        assertThat(json.get("railTable").get("rails").get(0).get("nics")).hasSize(4);
        assertThat(json.get("railTable").get("findings").get(0).get("message").asText()).startsWith("g1:eth0 (mlx5_0) reaches rail 1");
        assertThat(json.get("findings").toString()).doesNotContain("cross-rail");
    }

    @Test
    void dotDrawsSwitchesAsBoxesJoinedToNodesByRailColouredEdges() {
        Topology topology = Topology.of(new Snapshot(Fabric.railOptimised(2, 2).records()));
        Plan plan = Planner.plan(topology, List.of("g1", "g2"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);

        String dot = Dot.render(topology, plan);

        assertThat(dot).contains("label=\"leaf0\\nrail 0\" shape=\"box\" style=\"filled\"", "label=\"leaf1\\nrail 1\" shape=\"box\"",
                "label=\"g1\\nrank 0\" shape=\"ellipse\"");
        assertThat(dot.lines().filter(l -> l.contains("label=\"rail 1\"") && l.contains("headlabel=\"p"))).hasSize(2);
    }
}
