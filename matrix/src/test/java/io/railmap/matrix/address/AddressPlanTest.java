package io.railmap.matrix.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.model.PortRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class AddressPlanTest {
    private static AddressPlan.Link cable(String a, String b) {
        return new AddressPlan.Link(List.of(PortRef.parse(a), PortRef.parse(b)), false);
    }

    @Test
    void cablesGetConsecutiveSlash30sAfterTheReservedLinkLocalBlock() {
        AddressPlan plan = AddressPlan.of(List.of(cable("a:en6", "b:en7"), cable("a:en7", "b:en6")), AddressPlan.DEFAULT_POOL, List.of());
        assertThat(plan.links()).extracting(l -> l.subnet().toString()).containsExactly("169.254.1.0/30", "169.254.1.4/30");
        assertThat(plan.links().get(1).addresses()).containsExactly("169.254.1.5", "169.254.1.6");
        assertThatThrownBy(() -> plan.links().get(0).address(PortRef.parse("a:en7"))).hasMessageContaining("not an end");
    }

    @Test
    void segmentsComeFirstAndCablesSkipTheirBlocks() {
        AddressPlan.Link rail = new AddressPlan.Link(List.of(PortRef.parse("g1:eth2"), PortRef.parse("g2:eth2")), true);
        AddressPlan plan = AddressPlan.of(List.of(cable("g1:eth4", "g2:eth4"), rail), Ipv4Subnet.parse("pool", "10.9.0.0/23"), List.of());
        assertThat(plan.links().get(1).subnet()).hasToString("10.9.0.0/24");
        assertThat(plan.links().get(1).addresses()).containsExactly("10.9.0.1", "10.9.0.2");
        assertThat(plan.links().get(0).subnet()).hasToString("10.9.1.0/30");
    }

    @Test
    void aSubnetThatHoldsAnAddressInUseIsSkipped() {
        AddressPlan plan = AddressPlan.of(List.of(cable("a:e1", "b:e1"), cable("a:e2", "b:e2")), Ipv4Subnet.parse("pool", "192.168.7.0/24"),
                List.of("192.168.7.1", "192.168.7.9"));
        assertThat(plan.links()).extracting(l -> l.subnet().toString()).containsExactly("192.168.7.4/30", "192.168.7.12/30");
    }

    @Test
    void aPoolWithoutRoomSaysHowMuchWasNeeded() {
        assertThatThrownBy(() -> AddressPlan.of(List.of(cable("a:e1", "b:e1"), cable("a:e2", "b:e2")), Ipv4Subnet.parse("pool", "10.0.0.0/30"),
                List.of())).hasMessage("the pool 10.0.0.0/30 has no room for 0 segments (/24 each) and 2 cables (/30 each): give a larger pool");
        assertThatThrownBy(() -> AddressPlan.of(List.of(cable("a:e1", "b:e1")), Ipv4Subnet.parse("pool", "10.0.0.0/31"), List.of()))
                .hasMessageContaining("smaller than one cable's subnet");
        assertThatThrownBy(() -> AddressPlan.of(List.of(cable("a:e1", "b:e1"), cable("a:e1", "c:e1")), AddressPlan.DEFAULT_POOL, List.of()))
                .hasMessageContaining("a:e1 is on two links");
        assertThatThrownBy(() -> new AddressPlan.Link(List.of(PortRef.parse("a:e1")), false)).hasMessageContaining("exactly two");
    }

    /** Whatever the links and addresses in use: no two subnets overlap, none holds an address in use, every end is a host address. */
    @RepeatedTest(30)
    void noTwoLinksShareASubnet(RepetitionInfo repetition) {
        Random random = new Random(repetition.getCurrentRepetition());
        List<AddressPlan.Link> links = new ArrayList<>();
        int port = 0;
        for (int i = random.nextInt(200); i > 0; i--) {
            if (random.nextInt(10) == 0) {
                List<PortRef> ends = new ArrayList<>();
                for (int e = 1 + random.nextInt(6); e > 0; e--) {
                    ends.add(new PortRef("n" + e, "p" + port++));
                }
                links.add(new AddressPlan.Link(ends, true));
            } else {
                links.add(new AddressPlan.Link(List.of(new PortRef("x", "p" + port++), new PortRef("y", "p" + port++)), false));
            }
        }
        List<String> taken = new ArrayList<>();
        for (int i = random.nextInt(20); i > 0; i--) {
            taken.add("169.254." + random.nextInt(256) + "." + random.nextInt(256));
        }
        AddressPlan plan = AddressPlan.of(links, AddressPlan.DEFAULT_POOL, taken);
        assertThat(plan.links()).hasSize(links.size());
        for (int i = 0; i < plan.links().size(); i++) {
            AddressPlan.Assignment one = plan.links().get(i);
            assertThat(one.link()).isEqualTo(links.get(i));
            assertThat(AddressPlan.DEFAULT_POOL.overlaps(one.subnet())).isTrue();
            assertThat(one.subnet().contains("169.254.0.1") || one.subnet().contains("169.254.255.1")).isFalse();
            assertThat(taken).noneMatch(one.subnet()::contains);
            assertThat(one.addresses()).allMatch(one.subnet()::contains)
                    .doesNotContain(one.subnet().address(0), one.subnet().address(one.subnet().size() - 1));
            for (int j = 0; j < i; j++) {
                assertThat(one.subnet().overlaps(plan.links().get(j).subnet())).as("%s and %s", one, plan.links().get(j)).isFalse();
            }
        }
    }
}
