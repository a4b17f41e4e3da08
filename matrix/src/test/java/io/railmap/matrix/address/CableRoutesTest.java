package io.railmap.matrix.address;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import org.junit.jupiter.api.Test;

/** Whether a connection meant for a cable travels it, by the kernel's longest-prefix rule ({@link Routes}). */
class CableRoutesTest {
    private static final PortRef A6 = PortRef.parse("a:en6");
    private static final PortRef A7 = PortRef.parse("a:en7");
    private static final PortRef B6 = PortRef.parse("b:en6");
    private static final PortRef B7 = PortRef.parse("b:en7");
    private static final Cable ONE = new Cable(A6, B7);
    private static final Cable TWO = new Cable(A7, B6);

    /** Two Macs with crossed cables (a:en6–b:en7, a:en7–b:en6), each end with the address given. */
    private static Topology crossed(String a6, String b7, String a7, String b6) {
        return new Wired("a", "b").cable("a:en6", a6, "b:en7", b7).cable("a:en7", a7, "b:en6", b6).topology();
    }

    @Test
    void aSubnetPerCableLeavesOneRouteEachWayAndPinsTheConnection() {
        Topology t = crossed("169.254.1.1/30", "169.254.1.2/30", "169.254.1.5/30", "169.254.1.6/30");

        assertThat(CableRoutes.connection(t, TWO, B6, "169.254.1.6")).isEqualTo(new CableRoutes.Pinned("169.254.1.6", "169.254.1.5"));
        assertThat(CableRoutes.connection(t, ONE, A6, "169.254.1.1")).isEqualTo(new CableRoutes.Pinned("169.254.1.1", "169.254.1.2"));
        assertThat(Routes.egress(t.ports("a"), "169.254.1.6").ports()).containsExactly(A7);
    }

    @Test
    void everyPortInOneSlash16IsTheLabsMeasuredDefect() {
        // the lab with macOS's addressing: 200 MiB to b's en6 address (cable a:en7–b:en6) arrived on b:en7
        Topology t = crossed("169.254.1.1/16", "169.254.1.2/16", "169.254.1.3/16", "169.254.1.4/16");

        CableRoutes.Verdict v = CableRoutes.connection(t, TWO, B6, "169.254.1.4");
        assertThat(v).isInstanceOf(CableRoutes.Strays.class);
        CableRoutes.Strays strays = (CableRoutes.Strays) v;
        assertThat(strays.mismatch()).isFalse();
        assertThat(strays.ports()).containsExactly(B6, A7, A6, B7);
        assertThat(strays.reason()).isEqualTo("a connection from a to 169.254.1.4 (b:en6, on cable a:en7\u2013b:en6) may leave a by any of"
                + " a:en6, a:en7, which all hold 169.254.0.0/16: the kernel takes the first of equal routes, so the wire may travel"
                + " cable a:en6\u2013b:en7; give each cable a subnet of its own (railmap addresses)");
    }

    @Test
    void theLongestPrefixWinsSoOneSlash30BesideASlash16IsEnough() {
        // a Mac whose ports keep their self-assigned /16 and gained a /30 each: the /30 is the longest route
        Topology t = new Wired("a", "b").cable("a:en6", "169.254.1.1/30,169.254.9.9/16", "b:en7", "169.254.1.2/30,169.254.7.7/16")
                .cable("a:en7", "169.254.1.5/30,169.254.9.10/16", "b:en6", "169.254.1.6/30,169.254.7.8/16").topology();

        assertThat(CableRoutes.connection(t, TWO, B6, "169.254.7.8")).isInstanceOf(CableRoutes.Strays.class);
        assertThat(CableRoutes.best(t, TWO, B6)).isEqualTo(new CableRoutes.Pinned("169.254.1.6", "169.254.1.5"));
    }

    @Test
    void endsInTwoSubnetsReachEachOtherOverNoCable() {
        Topology t = crossed("169.254.1.1/30", "169.254.1.2/30", "169.254.1.5/30", "169.254.1.10/30");

        CableRoutes.Strays strays = (CableRoutes.Strays) CableRoutes.connection(t, TWO, B6, "169.254.1.10");
        assertThat(strays.mismatch()).isTrue();
        assertThat(strays.reason()).contains("finds no subnet of a's ports that holds 169.254.1.10: the cable's two ends share no subnet");
    }

    @Test
    void theAnswerTravelsBackTooSoTheListeningNodesRoutesCount() {
        // a is pinned (a /30 per port), b holds one /16 on both ports: the answers to a's en7 address may leave b by en7
        Topology t = crossed("169.254.1.1/30", "169.254.1.2/16", "169.254.1.5/30", "169.254.1.6/16");

        CableRoutes.Strays strays = (CableRoutes.Strays) CableRoutes.connection(t, TWO, B6, "169.254.1.6");
        assertThat(strays.reason()).startsWith("a connection from b to 169.254.1.5 (a:en7, on cable a:en7\u2013b:en6) may leave b by any of"
                + " b:en6, b:en7");
    }

    @Test
    void aRecordWithoutPrefixLengthsTakesALinkLocalAddressAsASlash16AndSaysSo() {
        Topology t = crossed("169.254.1.1", "169.254.1.2", "169.254.1.5", "169.254.1.6");

        CableRoutes.Strays strays = (CableRoutes.Strays) CableRoutes.connection(t, TWO, B6, "169.254.1.6");
        assertThat(strays.reason()).contains("which all hold 169.254.0.0/16 (a record that does not say prefix lengths: a link-local"
                + " address taken as a /16, RFC 3927)");
        Topology lan = crossed("192.168.0.1", "192.168.0.2", "192.168.1.1", "192.168.1.2");
        assertThat(CableRoutes.connection(lan, TWO, B6, "192.168.1.2")).isInstanceOf(CableRoutes.Unknown.class);
        assertThat(((CableRoutes.Unknown) CableRoutes.connection(lan, TWO, B6, "192.168.1.2")).reason())
                .startsWith("a's record does not say the prefix length of every address");
    }

    @Test
    void anAddressTheConnectingNodeHoldsItselfNeverLeavesIt() {
        Topology t = crossed("169.254.1.1/30", "169.254.1.2/30", "169.254.1.6/30", "169.254.1.6/30");

        CableRoutes.Strays strays = (CableRoutes.Strays) CableRoutes.connection(t, TWO, B6, "169.254.1.6");
        assertThat(strays.reason()).contains("never leaves a: a holds 169.254.1.6 itself");
    }
}
