package io.railmap.matrix.library;

import static io.railmap.matrix.library.UcxLibraryTest.env;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Conformance: NVSHMEM's reading of its NIC variables, as {@link NvshmemLibrary} mirrors it. */
class NvshmemLibraryTest {
    private final NvshmemLibrary nvshmem = new NvshmemLibrary();

    /** One entry of nvshmemt_parse_hca_list: port -1 when none is given. */
    record Hca(String name, int port, int count) {
    }

    /**
     * nvshmemt_parse_hca_list (transport_common.cpp), character by character: a leading '^' skipped
     * (the caller reads it as exclusion), ':' ends a name and starts its port (atoi), a second ':' its
     * count, ',' or the end closes an entry; at most {@code max} entries. Names longer than 63 bytes
     * would overflow NVSHMEM's buffer: the mirror fails on them.
     */
    static List<Hca> parseHcaList(String s, int max) {
        List<Hca> out = new ArrayList<>();
        int i = s.startsWith("^") ? 1 : 0;
        StringBuilder name = new StringBuilder();
        int port = -1;
        int count = 1;
        int segment = 0;
        while (out.size() < max) {
            char c = i < s.length() ? s.charAt(i) : '\0';
            if (c == ':') {
                int end = i + 1;
                while (end < s.length() && s.charAt(end) != ',' && s.charAt(end) != ':') {
                    end++;
                }
                int value = atoi(s.substring(i + 1, end));
                if (segment == 0) {
                    if (name.length() > 0) {
                        assertThat(name.length()).as("NVSHMEM's name buffer").isLessThan(64);
                        out.add(new Hca(name.toString(), value, 1));
                        name.setLength(0);
                        segment++;
                    }
                } else {
                    Hca last = out.remove(out.size() - 1);
                    out.add(new Hca(last.name(), last.port(), value));
                    segment = 0;
                }
                i = end;
                continue;
            } else if (c == ',' || c == '\0') {
                if (name.length() > 0) {
                    out.add(new Hca(name.toString(), port, count));
                    name.setLength(0);
                }
                segment = 0;
                if (c == '\0') {
                    break;
                }
            } else {
                if (name.length() == 0) {
                    port = -1;
                    count = 1;
                }
                name.append(c);
            }
            i++;
        }
        return out;
    }

    private static int atoi(String digits) {
        String d = digits.replaceAll("^([0-9]*).*", "$1");
        return d.isEmpty() ? 0 : Integer.parseInt(d);
    }

    @Test
    void hcaListNamesEveryComputeNicWithItsPortAndNoSideOrManagementNic() {
        NodeNics node = StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 2, 400).nic("mlx5_2", 1, 100)
                .management("mlx5_9", 400).nics();

        Map<String, String> env = env(nvshmem.settings(node));

        assertThat(env.get("NVSHMEM_HCA_LIST")).isEqualTo("mlx5_0:1,mlx5_1:2").doesNotStartWith("^");
        assertThat(parseHcaList(env.get("NVSHMEM_HCA_LIST"), NvshmemLibrary.MAX_HCAS))
                .containsExactly(new Hca("mlx5_0", 1, 1), new Hca("mlx5_1", 2, 1));
        assertThat(env).doesNotContainKey("NVSHMEM_ENABLE_NIC_PE_MAPPING");
    }

    @Test
    void theMirrorReadsNvshmemsOwnExamplesAsItsDocumentationSays() {
        assertThat(parseHcaList("mlx5_1:1,mlx5_2:2", 48)).containsExactly(new Hca("mlx5_1", 1, 1), new Hca("mlx5_2", 2, 1));
        assertThat(parseHcaList("mlx5_0:1:2,mlx5_0:2:2", 48)).containsExactly(new Hca("mlx5_0", 1, 2), new Hca("mlx5_0", 2, 2));
        assertThat(parseHcaList("^mlx5_3,mlx5_4", 1)).containsExactly(new Hca("mlx5_3", -1, 1));
    }

    @Test
    void overMaxNumHcasTheListStopsAt48SoNvshmemReadsAllOfIt() {
        StripeNode g = StripeNode.named("g1");
        for (int k = 0; k < 50; k++) {
            g.nic("mlx5_" + k, 1, 400);
        }

        NodeSettings s = nvshmem.settings(g.nics());

        String list = env(s).get("NVSHMEM_HCA_LIST");
        assertThat(parseHcaList(list, NvshmemLibrary.MAX_HCAS)).hasSize(48).isEqualTo(parseHcaList(list, Integer.MAX_VALUE));
        assertThat(s.findings()).filteredOn(f -> f.severity() == Severity.WARNING).singleElement().extracting(Finding::message)
                .asString().contains("at most 48", "MAX_NUM_HCAS", "mlx5_48:1,mlx5_49:1");
    }

    @Test
    void libfabricNicsPerPeIsTheCountUpToSixteen() {
        StripeNode g = StripeNode.named("g1");
        for (int k = 0; k < 4; k++) {
            g.nic("mlx5_" + k, 1, 400);
        }
        NodeSettings four = nvshmem.settings(g.nics());
        for (int k = 4; k < 20; k++) {
            g.nic("mlx5_" + k, 1, 400);
        }
        NodeSettings twenty = nvshmem.settings(g.nics());

        assertThat(env(four)).containsEntry("NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE", "4");
        assertThat(four.findings()).isEmpty();
        assertThat(env(twenty)).containsEntry("NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE", "16");
        assertThat(twenty.findings()).singleElement().extracting(Finding::message).asString().contains("20 compute NICs", "at most 16");
    }

    @Test
    void aNameLongerThanNvshmemsBufferIsLeftOut() {
        String long64 = "mlx5_" + "x".repeat(59);
        NodeSettings s = nvshmem.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400).nic(long64, 1, 400).nics());

        assertThat(env(s)).containsEntry("NVSHMEM_HCA_LIST", "mlx5_0:1");
        assertThat(s.findings()).singleElement().satisfies(f -> assertThat(f.severity()).isEqualTo(Severity.ERROR));
    }
}
